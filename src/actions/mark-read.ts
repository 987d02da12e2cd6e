// Marking many messages read at once: everything, a stream, or one topic of a stream.
// Each batch marks the newest unread messages left and tells the user's clients which ones;
// the batch that leaves nothing unread after a mark-all sends the `all: true` form instead.
import { sql } from 'kysely';
import type { RealmRow, StreamRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import { accessStreamById } from '../queries/stream-access.js';
import { isStorableText } from '../queries/users.js';
import type { Services } from '../services.js';
import { type BatchOutcome, bulkLimits, runBatches } from './batched-work.js';
import type { ActionContext } from './context.js';

const READ = FLAG_BITS.read;

interface UnreadScope {
  recipientId?: number;
  topic?: string;
}

/**
 * A stream whose messages the user may act on: one they can see, and, for a private stream,
 * one they are subscribed to (administrators see private streams but not their content).
 */
export async function accessStreamContent(ctx: Pick<ActionContext, 'tx' | 'actor'>, streamId: number): Promise<StreamRow> {
  const { stream, subscribed } = await accessStreamById(ctx.tx, ctx.actor, streamId);
  if (stream.invite_only && !subscribed) throw new ApiError('Invalid channel ID');
  return stream;
}

/** Marks the newest unread messages of the user in the scope read, at most `limit`; returns their ids. */
async function markNewestRead(ctx: ActionContext, scope: UnreadScope, limit: number): Promise<number[]> {
  const rows = await ctx.tx
    .updateTable('user_message')
    .set({ flags: sql`flags | ${READ}` })
    .where('user_id', '=', ctx.actor.id)
    .where('message_id', 'in', (eb) => {
      let newest = eb
        .selectFrom('user_message as um')
        .select('um.message_id')
        .where('um.user_id', '=', ctx.actor.id)
        // Written exactly as the partial index's condition, so the store walks only unread rows.
        .where(sql<boolean>`(um.flags & 1) = 0`);
      if (scope.recipientId !== undefined) {
        newest = newest.innerJoin('message as m', 'm.id', 'um.message_id').where('m.recipient_id', '=', scope.recipientId);
        if (scope.topic !== undefined) newest = newest.where(sql`lower(m.subject)`, '=', sql`lower(${scope.topic})`);
      }
      return newest.orderBy('um.message_id', 'desc').limit(limit);
    })
    .returning('message_id')
    .execute();
  return rows.map((r) => r.message_id).sort((a, b) => a - b);
}

/** The event telling a user's clients that messages (or, with `all`, all of them) are now read. */
export function readEvent(messages: number[], all: boolean): Record<string, unknown> {
  return { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages, all };
}

/** One batch of a scope: marks the newest unread messages and reports whether any are left. */
async function markBatch(ctx: ActionContext, scope: UnreadScope, everything: boolean): Promise<BatchOutcome> {
  const size = bulkLimits.readBatchSize;
  const ids = await markNewestRead(ctx, scope, size);
  const done = ids.length < size;
  if (everything && done) {
    ctx.events.send(readEvent([], true), [ctx.actor.id]);
  } else if (ids.length > 0) {
    ctx.events.send(readEvent(ids, false), [ctx.actor.id]);
  }
  return { done };
}

/** POST /mark_all_as_read: false when the time budget ran out first (the client repeats). */
export function markAllAsRead(services: Services, user: UserRow, realm: RealmRow): Promise<boolean> {
  return runBatches(services, user, realm, (ctx) => markBatch(ctx, {}, true), { budgeted: true });
}

/**
 * POST /mark_stream_as_read and /mark_topic_as_read. The reference answers these without a
 * `complete` field, so they run batch after batch until done, each in its own transaction.
 */
export async function markStreamAsRead(services: Services, user: UserRow, realm: RealmRow, streamId: number, topic?: string): Promise<void> {
  // Checked in the first batch's transaction only; later batches reuse the scope it found.
  let scope: UnreadScope | undefined;
  await runBatches(
    services,
    user,
    realm,
    async (ctx) => {
      scope ??= await topicScope(ctx, streamId, topic);
      return markBatch(ctx, scope, false);
    },
    { budgeted: false },
  );
}

/** The unread scope of a stream or one of its topics, after checking the user may act on it. */
async function topicScope(ctx: ActionContext, streamId: number, topic: string | undefined): Promise<UnreadScope> {
  const stream = await accessStreamContent(ctx, streamId);
  if (topic !== undefined && topic !== '' && !(await hasTopic(ctx, stream.recipient_id!, topic))) {
    throw new ApiError(`No such topic '${topic}'`);
  }
  return { recipientId: stream.recipient_id!, topic };
}

/** Whether the user has received (or kept history of) any message of the topic. */
async function hasTopic(ctx: ActionContext, recipientId: number, topic: string): Promise<boolean> {
  if (!isStorableText(topic)) return false;
  const row = await ctx.tx
    .selectFrom('message as m')
    .innerJoin('user_message as um', (join) => join.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', ctx.actor.id))
    .select('m.id')
    .where('m.recipient_id', '=', recipientId)
    .where(sql`lower(m.subject)`, '=', sql`lower(${topic})`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
