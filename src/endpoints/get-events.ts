// GET /events: acknowledge, then return the queue's newer events at once or by long-polling.
// Without a queue_id and with dont_block, it registers a queue from the register parameters.
// Most polls skip this route and are answered by src/http/event-poll.ts.
import { queueSpecFor } from '../events/state/register.js';
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { onDisconnect } from '../http/event-poll.js';
import { p } from '../http/params.js';
import { queueParams, queueRequest } from '../http/register-params.js';

export default endpoint({
  method: 'GET',
  url: '/events',
  rateLimit: 'events',
  params: {
    queue_id: p.string().optional(),
    last_event_id: p.int().optional(),
    dont_block: p.bool().default(false),
    ...queueParams,
  },
  async handler({ params, user, realm, services, reply }) {
    const { queue_id: queueId, last_event_id: lastEventId } = params;
    if (queueId === undefined) {
      if (!params.dont_block) throw new ApiError("Missing 'queue_id' argument");
      const queue = await services.queues.create(queueSpecFor(user, realm, queueRequest(params)), { realm, user });
      return { events: [], queue_id: queue.id };
    }
    if (lastEventId === undefined) throw new ApiError("Missing 'last_event_id' argument");
    const events = await services.queues.poll({
      queueId,
      userId: user.id,
      lastEventId,
      dontBlock: params.dont_block,
      onDisconnect: onDisconnect(reply.raw),
    });
    if (events === null) {
      // The server is stopping: the connection closes unanswered, and the client polls again.
      reply.hijack();
      reply.raw.destroy();
      return {};
    }
    return { events, queue_id: queueId };
  },
});
