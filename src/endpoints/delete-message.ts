// DELETE /messages/{message_id}: delete a message outright.
import { runAction } from '../actions/context.js';
import { checkDeleteMessage } from '../actions/message-delete.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/messages/:message_id',
  params: { message_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => checkDeleteMessage(ctx, params.message_id));
    return {};
  },
});
