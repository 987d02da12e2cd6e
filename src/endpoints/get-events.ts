// GET /events: acknowledge, then return the queue's newer events at once or by long-polling.
// Without a queue_id and with dont_block, it registers a queue from the register parameters.
// Most polls skip this route and go through src/http/event-poll.ts, which calls pollQueue too.
import type { ServerResponse } from 'node:http';
import { queueSpecFor } from '../events/state/register.js';
import type { QueuedEvent } from '../events/types.js';
import { ApiError } from '../errors.js';
import { endpoint } from '../http/endpoint.js';
import { p } from '../http/params.js';
import { queueParams, queueRequest } from '../http/register-params.js';
import type { Services } from '../services.js';

/** Polls the user's queue; a client that goes away ends the wait with nothing. */
export async function pollQueue(
  services: Services,
  userId: number,
  request: { queue_id: string; last_event_id: number; dont_block: boolean },
  raw: ServerResponse,
): Promise<{ events: QueuedEvent[]; queue_id: string }> {
  const events = await services.queues.poll({
    queueId: request.queue_id,
    userId,
    lastEventId: request.last_event_id,
    dontBlock: request.dont_block,
    onDisconnect: (listener) =>
      raw.once('close', () => {
        if (!raw.writableEnded) listener();
      }),
  });
  return { events, queue_id: request.queue_id };
}

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
    const { queue_id: queueId, last_event_id: lastEventId } = params;
    if (queueId === undefined) {
      if (!params.dont_block) throw new ApiError("Missing 'queue_id' argument");
      const queue = await services.queues.create(queueSpecFor(user, realm, queueRequest(params)), { realm, user });
      return { events: [], queue_id: queue.id };
    }
    if (lastEventId === undefined) throw new ApiError("Missing 'last_event_id' argument");
    return pollQueue(services, user.id, { queue_id: queueId, last_event_id: lastEventId, dont_block: params.dont_block }, reply.raw);
  },
});
