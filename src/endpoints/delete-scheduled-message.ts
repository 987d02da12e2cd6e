// DELETE /scheduled_messages/{scheduled_message_id}: cancel a scheduled message.
import { runAction } from '../actions/context.js';
import { doDeleteScheduledMessage } from '../actions/scheduled-messages.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'DELETE',
  url: '/scheduled_messages/:scheduled_message_id',
  params: { scheduled_message_id: p.pathInt() },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) => doDeleteScheduledMessage(ctx, params.scheduled_message_id));
    return {};
  },
});
