// GET /events: acknowledge, then return the queue's newer events at once or by long-polling.
// Without a queue_id and with dont_block, it registers a queue from the register parameters.
import { queueSpecFor } from '../events/state/register.js';
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { queueParams, queueRequest } from '../http/register-params.js';

export default endpoint({
  method: 'GET',
  url: '/events',
  params: {
    queue_id: p.string().optional(),
    last_event_id: p.int().optional(),
    dont_block: p.bool().default(false),
    ...queueParams,
  },
  async handler({ params, user, realm, services, reply }) {
    if (params.queue_id === undefined) {
      if (!params.dont_block) throw new ApiError("Missing 'queue_id' argument");
      const queue = await services.queues.create(queueSpecFor(user, realm, queueRequest(params)), { realm, user });
      return { events: [], queue_id: queue.id };
    }
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
