// POST /scheduled_messages: schedule a stream or direct message to be sent later. A retry with
// the same Idempotency-Key gets the first answer (see actions/idempotency.ts).
import { runAction } from '../actions/context.js';
import { answerOnce, idempotentRequest } from '../actions/idempotency.js';
import { doScheduleMessage } from '../actions/scheduled-messages.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { clientNameFromUserAgent } from '../lib/client-name.js';
import { SCHEDULED_TYPES, scheduledType } from '../lib/scheduled-messages.js';

export default endpoint({
  method: 'POST',
  url: '/scheduled_messages',
  params: {
    type: p.choice(SCHEDULED_TYPES),
    to: p.raw(),
    content: p.string(),
    topic: p.string().optional(),
    scheduled_delivery_timestamp: p.int(),
    read_by_sender: p.bool().optional(),
  },
  handler({ params, user, realm, services, req }) {
    const once = idempotentRequest(req, 'POST /scheduled_messages', params);
    return runAction(services, user, realm, (ctx) =>
      answerOnce(ctx, once, async () => {
        const id = await doScheduleMessage(ctx, {
          type: scheduledType(params.type),
          to: params.to,
          topic: params.topic,
          content: params.content,
          deliverAt: params.scheduled_delivery_timestamp,
          client: clientNameFromUserAgent(req.headers['user-agent']),
          readBySender: params.read_by_sender,
        });
        return { scheduled_message_id: id };
      }),
    );
  },
});
