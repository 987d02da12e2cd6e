// Event polls for a queue another member holds are passed on to that member, so a load balancer
// may send any request to any process. The poll goes on as it came (the holder checks the
// credentials) and its answer comes back as the holder wrote it. While the holder stops and hands
// its queues over, the poll waits for the queue's new holder; when the holder is gone (killed), this
// process's route answers (the reference's BAD_EVENT_QUEUE_ID, after which clients register again).
// While Redis is away the holder cannot be looked up: the queue may be alive, so the client is told
// to try again (503) rather than that its queue is gone.
import { Agent, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { type ApiError, ClusterUnavailableError } from '../errors.js';
import type { NodeHandler } from '../http/event-poll.js';
import type { Services } from '../services.js';
import type { ClusterMember } from './cluster.js';

/** Marks a poll already passed on once, so it is never passed on again. */
export const FORWARDED_HEADER = 'x-confab-forwarded';
const EVENT_PATHS = ['/api/v1/events', '/json/events'];
/** How long a poll waits for a stopping holder's queues to reach their new holder. */
const MOVE_WAIT_MS = 8000;
const MOVE_RETRY_MS = 200;

const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

function queueIdOf(url: string): string | null {
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  if (!EVENT_PATHS.includes(path.replace(/\/+$/, '')) || question < 0) return null;
  return new URLSearchParams(url.slice(question + 1)).get('queue_id');
}

type Outcome = 'answered' | 'moving' | 'gone';

function isShuttingDown(body: Buffer): boolean {
  try {
    return (JSON.parse(body.toString()) as { code?: unknown }).code === 'SERVER_SHUTTING_DOWN';
  } catch {
    return false;
  }
}

function pass(req: IncomingMessage, res: ServerResponse, target: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const url = new URL(req.url!, target);
    const upstream = request(url, { method: req.method, headers: { ...req.headers, [FORWARDED_HEADER]: '1' }, agent }, (answer) => {
      if (answer.statusCode === 503) {
        // A holder that has begun stopping says so: the queue is on its way elsewhere. Any other
        // 503 (its database away) is the client's answer.
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (isShuttingDown(body)) return resolve('moving');
          res.writeHead(503, answer.headers);
          res.end(body);
          resolve('answered');
        });
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('end', () => resolve('answered'));
    });
    upstream.on('error', () => resolve(res.headersSent ? 'answered' : 'gone'));
    // The client leaving ends the poll at the holder too.
    res.on('close', () => upstream.destroy());
    upstream.end();
  });
}

async function forward(member: ClusterMember, req: IncomingMessage, res: ServerResponse, queueId: string, next: NodeHandler): Promise<void> {
  const deadline = Date.now() + MOVE_WAIT_MS;
  for (;;) {
    const holder = await member.queueHolder(queueId);
    // A queue of this member's own that it no longer holds, or an id no member made: the route answers.
    if (holder === null || holder === member.id) return next(req, res);
    const state = await member.state(holder);
    const outcome = state.kind === 'up' ? await pass(req, res, state.url) : state.kind === 'stopping' ? 'moving' : 'gone';
    if (outcome === 'answered' || res.destroyed) return;
    if (outcome === 'gone' && (await member.state(holder)).kind !== 'stopping') {
      // Killed rather than stopped: its queues went with it, unless this one has just moved.
      if ((await member.queueHolder(queueId)) === holder) return next(req, res);
    }
    // The route checks the credentials and answers the reference's BAD_EVENT_QUEUE_ID.
    if (Date.now() > deadline) return next(req, res);
    await new Promise((resolve) => setTimeout(resolve, MOVE_RETRY_MS));
  }
}

function answerError(res: ServerResponse, error: ApiError): void {
  const body = JSON.stringify(error.body());
  res.writeHead(error.status, { ...error.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Wraps the server's handler: polls for queues held elsewhere go there; everything else goes on. */
export function withQueueForwarding(services: Services, next: NodeHandler): NodeHandler {
  const member = services.cluster;
  if (!member) return next;
  return (req, res) => {
    const queueId = req.method === 'GET' && req.headers[FORWARDED_HEADER] === undefined ? queueIdOf(req.url ?? '') : null;
    if (queueId === null || services.queues.get(queueId)) return next(req, res);
    // Only the lookups in Redis throw (pass() resolves whatever happens).
    forward(member, req, res, queueId, next).catch((error: unknown) => {
      services.log?.warn({ err: error }, 'could not look up which process holds an event queue');
      if (!res.headersSent) answerError(res, new ClusterUnavailableError());
    });
  };
}
