// PATCH /scheduled_messages/{scheduled_message_id}: change what, to whom or when.
import { runAction } from '../actions/context.js';
import { doEditScheduledMessage } from '../actions/scheduled-messages.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { clientNameFromUserAgent } from '../lib/client-name.js';
import { SCHEDULED_TYPES, scheduledType } from '../lib/scheduled-messages.js';

export default endpoint({
  method: 'PATCH',
  url: '/scheduled_messages/:scheduled_message_id',
  params: {
    scheduled_message_id: p.pathInt(),
    type: p.choice(SCHEDULED_TYPES).optional(),
    to: p.raw().optional(),
    content: p.string().optional(),
    topic: p.string().optional(),
    scheduled_delivery_timestamp: p.int().optional(),
  },
  async handler({ params, user, realm, services, req }) {
    await runAction(services, user, realm, (ctx) =>
      doEditScheduledMessage(ctx, params.scheduled_message_id, {
        type: params.type === undefined ? undefined : scheduledType(params.type),
        to: params.to,
        topic: params.topic,
        content: params.content,
        deliverAt: params.scheduled_delivery_timestamp,
        client: clientNameFromUserAgent(req.headers['user-agent']),
      }),
    );
    return {};
  },
});
