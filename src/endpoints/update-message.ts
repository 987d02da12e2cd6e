// PATCH /messages/{message_id}: edit a message's content, or move it (and others in its topic)
// to another topic and/or stream.
import { runAction } from '../actions/context.js';
import { checkUpdateMessage } from '../actions/message-edit.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { PROPAGATE_MODES } from '../lib/edit-rules.js';

export default endpoint({
  method: 'PATCH',
  url: '/messages/:message_id',
  params: {
    message_id: p.pathInt(),
    content: p.string().optional(),
    topic: p.string().alias('subject').optional(),
    stream_id: p.int({ min: 0 }).optional(),
    propagate_mode: p.choice(PROPAGATE_MODES).default('change_one'),
    send_notification_to_old_thread: p.bool().default(false),
    send_notification_to_new_thread: p.bool().default(true),
  },
  async handler({ params, user, realm, services }) {
    await runAction(services, user, realm, (ctx) =>
      checkUpdateMessage(ctx, {
        messageId: params.message_id,
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        sendNotificationToOldThread: params.send_notification_to_old_thread,
        sendNotificationToNewThread: params.send_notification_to_new_thread,
      }),
    );
    return {};
  },
});
