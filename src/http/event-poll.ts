// GET /api/v1/events straight from Node's HTTP server. Every client repeats this request all
// day, and for it Fastify's routing, hooks and reply pipeline cost more than the poll itself.
// Only the plain form (queue_id, last_event_id, dont_block) is taken here, and only while each
// step succeeds: anything else, and every error, goes on to the Fastify route, which answers it
// in full (nothing here changes state before the point where it can no longer fail).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pollQueue } from '../endpoints/get-events.js';
import { eventsJson } from '../events/queue.js';
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

async function userIdOf(services: Services, cache: PollAuthCache, req: IncomingMessage): Promise<number> {
  const { authorization, host } = req.headers;
  const known = cache.userIdFor(authorization!, host);
  if (known !== undefined) return known;
  const { user } = await authenticate(services, authorization, host);
  cache.remember(authorization!, host, user.id);
  return user.id;
}

async function answer(services: Services, cache: PollAuthCache, req: IncomingMessage, res: ServerResponse, raw: Record<string, string>): Promise<void> {
  const userId = await userIdOf(services, cache, req);
  const { values } = parseParams(PLAIN_POLL, raw, {});
  const { events, queue_id: queueId } = await pollQueue(services, userId, values, res);
  // What JSON.stringify would write for the answer, with each shared event serialized once.
  const body = `{"result":"success","msg":"","events":${eventsJson(events)},"queue_id":${JSON.stringify(queueId)}}`;
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Wraps Fastify's request handler: plain polls are answered here, everything else goes to `next`. */
export function withEventPolls(services: Services, next: NodeHandler): NodeHandler {
  const cache = new PollAuthCache(services.clock, services.bus);
  return (req, res) => {
    const raw = plainPoll(req);
    if (raw === null) return next(req, res);
    answer(services, cache, req, res, raw).catch((error: unknown) => {
      // A poll fails before it waits or answers, so the route can take the request from the start.
      if (!res.headersSent) return next(req, res);
      services.log?.error({ err: error }, 'event poll failed');
    });
  };
}
