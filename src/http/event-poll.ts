// GET /api/v1/events straight from Node's HTTP server. Every client repeats this request all
// day, and for it Fastify's routing, hooks and reply pipeline cost more than the poll itself.
// Only the plain form (queue_id, last_event_id, dont_block) is taken here, and only while each
// step succeeds: anything else, and every error, goes on to the Fastify route, which answers it
// in full (nothing here changes state before the point where it can no longer fail). Polls
// answered here do not appear in Fastify's request log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { eventsJson } from '../events/queue.js';
import type { QueuedEvent } from '../events/types.js';
import type { Services } from '../services.js';
import { authenticate } from './auth.js';
import { p, parseParams } from './params.js';
import { PollAuthCache } from './poll-auth-cache.js';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

const PREFIX = '/api/v1/events?';
const PLAIN_POLL = {
  queue_id: p.string(),
  last_event_id: p.int(),
  dont_block: p.bool().default(false),
};

/** The poll's parameters when the request is a plain poll, else null. */
function plainPoll(req: IncomingMessage): Record<string, string> | null {
  if (req.method !== 'GET' || !req.url?.startsWith(PREFIX) || req.headers.authorization === undefined) return null;
  const raw: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(req.url.slice(PREFIX.length))) {
    if (!(key in PLAIN_POLL)) return null;
    raw[key] = value;
  }
  return raw;
}

/** Calls `listener` if the client goes away before the answer is written. */
export function onDisconnect(res: ServerResponse): (listener: () => void) => void {
  return (listener) =>
    res.once('close', () => {
      if (!res.writableEnded) listener();
    });
}

function respond(res: ServerResponse, queueId: string, events: readonly QueuedEvent[]): void {
  // What JSON.stringify would write for the answer, with each shared event serialized once.
  const body = `{"result":"success","msg":"","events":${eventsJson(events)},"queue_id":${JSON.stringify(queueId)}}`;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Answers the poll now or when its events come, with no promise in between: a delivery to a
 * thousand waiting clients writes a thousand answers, and each promise step would add to each.
 * Returns false when the route is to take the request instead (nothing has changed then).
 */
function serve(services: Services, userId: number, res: ServerResponse, raw: Record<string, string>): boolean {
  let request;
  let ready;
  try {
    const { values } = parseParams(PLAIN_POLL, raw, {});
    request = { queueId: values.queue_id, userId, lastEventId: values.last_event_id, dontBlock: values.dont_block };
    ready = services.queues.take(request);
  } catch {
    return false;
  }
  const queueId = request.queueId;
  if (ready) {
    respond(res, queueId, ready);
    return true;
  }
  services.queues.wait({ ...request, onDisconnect: onDisconnect(res) }, (events) => {
    try {
      respond(res, queueId, events);
    } catch (error) {
      // The answer is written while an event is handed out: one failure must not stop the others.
      services.log?.error({ err: error }, 'event poll answer failed');
    }
  });
  return true;
}

/** Wraps Fastify's request handler: plain polls are answered here, everything else goes to `next`. */
export function withEventPolls(services: Services, next: NodeHandler): NodeHandler {
  const cache = new PollAuthCache(services.clock, services.bus);
  return (req, res) => {
    const raw = plainPoll(req);
    if (raw === null) return next(req, res);
    const { authorization, host } = req.headers;
    const userId = cache.userIdFor(authorization!, host);
    if (userId !== undefined) {
      if (!serve(services, userId, res, raw)) next(req, res);
      return;
    }
    authenticate(services, authorization, host).then(
      ({ user }) => {
        cache.remember(authorization!, host, user.id);
        if (!serve(services, user.id, res, raw)) next(req, res);
      },
      // The route answers failed credentials in full.
      () => next(req, res),
    );
  };
}
