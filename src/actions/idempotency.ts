// Safe retries of sends. A client that lost the answer to a send cannot tell whether the message
// was stored; with a key (the Idempotency-Key header, or the local_id and queue_id pair Zulip
// clients already send) its retry within the window gets the first answer and stores nothing new.
// The key is recorded in the transaction that stores the message, under a unique index: two
// requests with one key at once store one message, as the loser's transaction is retried (see
// db/transaction.ts) and then finds the winner's answer. Refused requests are not recorded (their
// transaction rolls back), so their retry is tried again.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError, IdempotencyKeyReusedError } from '../errors.js';
import type { Services } from '../services.js';
import { type ActionContext, runSystemAction } from './context.js';

/** How long an answered key is remembered. */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
const SWEEP_BATCH = 1000;
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const HEADER = 'idempotency-key';
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

export interface IdempotentRequest {
  keyHash: string;
  requestHash: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The request's key and fingerprint, or null when it has no key. The header wins over the pair;
 * `params` are what makes two requests the same one (the route's parameters without the pair).
 */
export function idempotentRequest(
  req: FastifyRequest,
  route: string,
  params: Record<string, unknown>,
  pair: { localId?: string; queueId?: string } = {},
): IdempotentRequest | null {
  const header = req.headers[HEADER];
  let key: string;
  if (header !== undefined) {
    const value = Array.isArray(header) ? header.join(', ') : header;
    if (!VALID_KEY.test(value) || value.trim() === '') {
      throw new ApiError('Invalid Idempotency-Key header: 1 to 255 printable ASCII characters expected');
    }
    key = `header\0${value}`;
  } else if (pair.localId !== undefined && pair.queueId !== undefined) {
    key = `local\0${pair.queueId}\0${pair.localId}`;
  } else {
    return null;
  }
  const sorted = Object.keys(params)
    .sort()
    .map((name) => [name, params[name]]);
  return { keyHash: sha256(key), requestHash: sha256(JSON.stringify([route, sorted])) };
}

/** Runs `work` unless this user's key was answered within the window; then answers that again. */
export async function answerOnce<T extends Record<string, unknown>>(
  ctx: ActionContext,
  request: IdempotentRequest | null,
  work: () => Promise<T>,
): Promise<T> {
  if (!request) return work();
  const byKey = { user_id: ctx.actor.id, key_hash: request.keyHash };
  const found = await ctx.tx
    .selectFrom('idempotency_key')
    .select(['request_hash', 'response', 'expires'])
    .where('user_id', '=', byKey.user_id)
    .where('key_hash', '=', byKey.key_hash)
    .executeTakeFirst();
  if (found && found.expires > ctx.now) {
    if (found.request_hash !== request.requestHash) throw new IdempotencyKeyReusedError();
    return JSON.parse(found.response) as T;
  }
  if (found) {
    // Expired but not yet swept: the key is free again.
    await ctx.tx.deleteFrom('idempotency_key').where('user_id', '=', byKey.user_id).where('key_hash', '=', byKey.key_hash).execute();
  }
  const answer = await work();
  await ctx.tx
    .insertInto('idempotency_key')
    .values({ ...byKey, request_hash: request.requestHash, response: JSON.stringify(answer), expires: ctx.now + IDEMPOTENCY_WINDOW_SECONDS })
    .execute();
  return answer;
}

/** Removes expired keys, `batch` per transaction so no pass holds the store long; answers how many. */
export async function sweepIdempotencyKeys(services: Services, batch = SWEEP_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await runSystemAction(services, async ({ tx, now }) => {
      const rows = await tx.selectFrom('idempotency_key').select('id').where('expires', '<=', now).orderBy('expires').limit(batch).execute();
      if (rows.length > 0) await tx.deleteFrom('idempotency_key').where('id', 'in', rows.map((row) => row.id)).execute();
      return rows.length;
    });
    total += removed;
    if (removed < batch) return total;
  }
}

/** Sweeps every ten minutes until the returned function is called. */
export function scheduleIdempotencySweep(services: Services): () => void {
  const timer = setInterval(() => {
    // In a cluster, one process takes each turn.
    Promise.resolve(services.cluster ? services.cluster.takeTurn('idempotency-sweep', SWEEP_INTERVAL_MS) : true)
      .then((mine) => (mine ? sweepIdempotencyKeys(services) : undefined))
      .catch((error: unknown) => services.log?.warn({ err: error }, 'the idempotency key sweep failed'));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
