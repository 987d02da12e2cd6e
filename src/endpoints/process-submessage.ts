// POST /submessage: attach data to a message, such as a vote in its poll or a task in its todo list.
import { runAction } from '../actions/context.js';
import { checkAddSubmessage } from '../actions/submessage.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'POST',
  url: '/submessage',
  params: {
    message_id: p.int(),
    msg_type: p.string(),
    content: p.string(),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      checkAddSubmessage(ctx, { messageId: params.message_id, msgType: params.msg_type, content: params.content }),
    );
    return {};
  },
});
