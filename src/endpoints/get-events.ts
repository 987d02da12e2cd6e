// GET /events: acknowledge, then return the queue's newer events at once or by long-polling.
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';

export default endpoint({
  method: 'GET',
  url: '/events',
  params: {
    queue_id: p.string().optional(),
    last_event_id: p.int().optional(),
    dont_block: p.bool().default(false),
  },
  async handler({ params, user, services, reply }) {
    // Registering a queue here (no queue_id, dont_block true) belongs to POST /register's
    // parameters; until that exists every call must name its queue.
    if (params.queue_id === undefined) throw new ApiError("Missing 'queue_id' argument");
    if (params.last_event_id === undefined) throw new ApiError("Missing 'last_event_id' argument");
    const raw = reply.raw;
    const disconnected = new Promise<void>((resolve) => {
      raw.once('close', () => {
        if (!raw.writableEnded) resolve();
      });
    });
    const events = await services.queues.poll({
      queueId: params.queue_id,
      userId: user.id,
      lastEventId: params.last_event_id,
      dontBlock: params.dont_block,
      disconnected,
    });
    return { events, queue_id: params.queue_id };
  },
});
