// GET /messages/{message_id}/history: every version of a message the requester may read,
// oldest first, unless the organization hides edit history.
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { messageHistory, visibleHistory } from '../lib/edit-history.js';
import { realmSettings } from '../lib/realm-settings.js';
import { accessMessage } from '../queries/messages.js';

export default endpoint({
  method: 'GET',
  url: '/messages/:message_id/history',
  params: { message_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    const policy = realmSettings(realm).message_edit_history_visibility_policy;
    if (policy === 'none') throw new ApiError('Message edit history is disabled in this organization');
    const { message } = await accessMessage(services.db, user, params.message_id);
    return { message_history: visibleHistory(messageHistory(message), policy) };
  },
});
