// POST /messages: send a stream or direct message. A retry with the same Idempotency-Key (or
// local_id and queue_id pair) gets the first answer (see actions/idempotency.ts).
import { runAction } from '../actions/context.js';
import { answerOnce, idempotentRequest } from '../actions/idempotency.js';
import { checkSendMessage } from '../actions/message-send.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { parseAddressee } from '../lib/addressee.js';
import { clientNameFromUserAgent, defaultReadBySender } from '../lib/client-name.js';

export default endpoint({
  method: 'POST',
  url: '/messages',
  allowIncomingWebhooks: true,
  params: {
    type: p.choice(['stream', 'channel', 'direct', 'private']),
    to: p.raw(),
    content: p.string(),
    topic: p.string().optional().alias('subject'),
    queue_id: p.string().optional(),
    local_id: p.string().optional(),
    read_by_sender: p.bool().optional(),
  },
  handler({ params, user, realm, services, req }) {
    const { queue_id: queueId, local_id: localId, ...request } = params;
    const once = idempotentRequest(req, 'POST /messages', request, { localId, queueId });
    const addressee = parseAddressee(params.type, params.to, params.topic);
    const client = clientNameFromUserAgent(req.headers['user-agent']);
    return runAction(services, user, realm, (ctx) =>
      answerOnce(ctx, once, () =>
        checkSendMessage(ctx, {
          addressee,
          content: params.content,
          client,
          readBySender: params.read_by_sender ?? defaultReadBySender(client),
          localId,
          queueId,
        }),
      ),
    );
  },
});
