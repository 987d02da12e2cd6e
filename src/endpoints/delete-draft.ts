// DELETE /drafts/{draft_id}: delete one of the user's drafts.
import { runAction } from '../actions/context.js';
import { doDeleteDraft } from '../actions/drafts.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/drafts/:draft_id',
  params: { draft_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doDeleteDraft(ctx, params.draft_id));
    return {};
  },
});
