// GET /api/v1/events answered before Fastify. Every client repeats this request all day, and for
// it Fastify's routing, hooks and reply pipeline cost more than the poll itself. Only the plain
// form (queue_id, last_event_id, dont_block) is taken here, and only while each step succeeds:
// anything else, and every error, goes on to the Fastify route, which answers it in full (nothing
// here changes state before the point where it can no longer fail). Polls answered here do not
// appear in Fastify's request log. PollServer knows nothing of the transport: Node's HTTP server
// (withEventPolls) and kept-alive poll connections read straight from the socket (raw-polls.ts)
// both use it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { eventsJson } from '../events/queue.js';
import type { QueuedEvent } from '../events/types.js';
import { BotType } from '../lib/roles.js';
import type { Services } from '../services.js';
import { checkAndRemember, credentialCacheFor } from './auth.js';
import type { CredentialCache, Stamp } from './credential-cache.js';
import { p, parseParams } from './params.js';
import { type RateLimiter, rateLimiterFor } from './rate-limit.js';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

const PREFIX = '/api/v1/events?';
const PLAIN_POLL = {
  queue_id: p.string(),
  last_event_id: p.int(),
  dont_block: p.bool().default(false),
};

export interface PollParams {
  queueId: string;
  lastEventId: number;
  dontBlock: boolean;
}

/** Values URLSearchParams would not decode, so they read the same taken as they are. */
const SIMPLE_VALUE = /^[A-Za-z0-9._:~-]+$/;
/** Integers JSON reads as written. */
const SIMPLE_INT = /^(?:0|-?[1-9][0-9]{0,14})$/;

/**
 * The spelling clients use, each name once with a value that needs no decoding, read without
 * URLSearchParams and the parameter layer, which cost more than the rest of reading a poll. Null
 * for anything else, which the full reading below then takes.
 */
export function simplePollParams(query: string): PollParams | null {
  let queueId: string | undefined;
  let lastEventId: number | undefined;
  let dontBlock: boolean | undefined;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const value = pair.slice(eq + 1);
    if (eq <= 0 || !SIMPLE_VALUE.test(value)) return null;
    const key = pair.slice(0, eq);
    if (key === 'queue_id' && queueId === undefined) queueId = value;
    else if (key === 'last_event_id' && lastEventId === undefined && SIMPLE_INT.test(value)) lastEventId = Number(value);
    else if (key === 'dont_block' && dontBlock === undefined && (value === 'true' || value === 'false')) dontBlock = value === 'true';
    else return null;
  }
  if (queueId === undefined || lastEventId === undefined) return null;
  return { queueId, lastEventId, dontBlock: dontBlock ?? false };
}

/**
 * The poll's parameters when the request target is a plain poll's with valid values; null when
 * the route is to answer it (another path, other parameters, or values the route refuses).
 */
export function plainPollParams(target: string): PollParams | null {
  if (!target.startsWith(PREFIX)) return null;
  const query = target.slice(PREFIX.length);
  return simplePollParams(query) ?? fullPollParams(query);
}

/** A plain poll's query read as the route reads it; null when the route is to answer it. */
export function fullPollParams(query: string): PollParams | null {
  const raw: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    if (!Object.hasOwn(PLAIN_POLL, key)) return null;
    raw[key] = value;
  }
  try {
    const { values } = parseParams(PLAIN_POLL, raw, {});
    return { queueId: values.queue_id, lastEventId: values.last_event_id, dontBlock: values.dont_block };
  } catch {
    return null;
  }
}

/** How an answer reaches the client. */
export interface PollReply {
  /** Writes a 200 answer with this JSON body. */
  send(body: string): void;
  /** Calls `listener` if the client goes away before the answer is written. */
  onGone(listener: () => void): void;
  /** Ends the connection without an answer: the server is stopping, and the client is to poll again. */
  close(): void;
}

/** Calls `listener` if the client goes away before the answer is written, or has already gone. */
export function onDisconnect(res: ServerResponse): (listener: () => void) => void {
  return (listener) => {
    // A client can leave while its credentials are checked, before the listener is in place.
    if (res.destroyed) {
      if (!res.writableEnded) listener();
      return;
    }
    res.once('close', () => {
      if (!res.writableEnded) listener();
    });
  };
}

function answerBody(queueId: string, events: readonly QueuedEvent[]): string {
  // What JSON.stringify would write for the answer, with each shared event serialized once.
  return `{"result":"success","msg":"","events":${eventsJson(events)},"queue_id":${JSON.stringify(queueId)}}`;
}

/** The polling user's id; incoming-webhook bots are left to the route, which refuses them in full. */
function pollerId(user: { id: number; bot_type: number | null }): number {
  if (user.bot_type === BotType.INCOMING_WEBHOOK) throw new Error('answered by the route');
  return user.id;
}

export class PollServer {
  private readonly cache: CredentialCache;
  private readonly limiter: RateLimiter;

  constructor(private readonly services: Services) {
    this.cache = credentialCacheFor(services);
    this.limiter = rateLimiterFor(services);
  }

  /**
   * Answers a plain poll through `reply`, now or when its events come. Calls `fallback` instead
   * (before anything is written, and with nothing changed) when the route is to take the request.
   */
  handle(authorization: string, host: string | undefined, params: PollParams, reply: PollReply, fallback: () => void): void {
    const found = this.cache.lookup(authorization, host);
    // Remembered credentials whose counters were read at once: answered with no promise in between.
    if (!(found instanceof Promise) && 'found' in found) {
      // The route refuses incoming-webhook bots in full.
      if (found.found.user.bot_type === BotType.INCOMING_WEBHOOK) return fallback();
      this.serveWithinLimit(found.found.user.id, params, reply, fallback);
      return;
    }
    Promise.resolve(found)
      .then((lookup) => ('found' in lookup ? pollerId(lookup.found.user) : this.check(authorization, host, lookup.stamp)))
      .then(
        (userId) => this.serveWithinLimit(userId, params, reply, fallback),
        // The route answers failed credentials in full.
        fallback,
      );
  }

  private async check(authorization: string, host: string | undefined, known: Stamp | null): Promise<number> {
    return pollerId((await checkAndRemember(this.services, authorization, host, known)).user);
  }

  /** Polls count against the user's event-poll limit; the route answers one over it (with a 429). */
  private serveWithinLimit(userId: number, params: PollParams, reply: PollReply, fallback: () => void): void {
    const allowed = this.limiter.pollAllowed(userId);
    const go = (ok: boolean) => {
      if (!ok || !this.serve(userId, params, reply)) fallback();
    };
    if (allowed instanceof Promise) allowed.then(go, fallback);
    else go(allowed);
  }

  /**
   * Answers with no promise in between: a delivery to a thousand waiting clients writes a
   * thousand answers, and each promise step would add to each. False: the route is to answer.
   */
  private serve(userId: number, params: PollParams, reply: PollReply): boolean {
    const { queues } = this.services;
    const request = { ...params, userId };
    let ready;
    try {
      ready = queues.take(request);
    } catch {
      return false;
    }
    const { queueId } = params;
    if (ready) {
      reply.send(answerBody(queueId, ready));
      return true;
    }
    queues.wait({ ...request, onDisconnect: (listener) => reply.onGone(listener) }, (events) => {
      try {
        if (events === null) reply.close();
        else reply.send(answerBody(queueId, events));
      } catch (error) {
        // The answer is written while an event is handed out: one failure must not stop the others.
        this.services.log?.error({ err: error }, 'event poll answer failed');
      }
    });
    return true;
  }
}

function responseReply(res: ServerResponse): PollReply {
  return {
    send(body) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    },
    onGone: onDisconnect(res),
    close: () => res.destroy(),
  };
}

/** Wraps Fastify's request handler: plain polls are answered here, everything else goes to `next`. */
export function withEventPolls(polls: PollServer, next: NodeHandler): NodeHandler {
  return (req, res) => {
    const { authorization, host } = req.headers;
    const params = req.method === 'GET' && authorization !== undefined && req.url !== undefined ? plainPollParams(req.url) : null;
    if (params === null) return next(req, res);
    polls.handle(authorization!, host, params, responseReply(res), () => next(req, res));
  };
}
