// Moving messages to another topic and/or stream: which messages move, their rows and edit
// history, and the user_message rows of people who gain or lose them on a stream move.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { MessageRow, StreamRow } from '../db/schema.js';
import type { PropagateMode } from '../lib/edit-rules.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import type { EditHistoryEntry } from '../lib/message-format.js';
import { moveOutcome, subscribersGainRows } from '../lib/move-access.js';
import { canAccessStreamHistory } from '../lib/permissions.js';
import { Role } from '../lib/roles.js';
import { isSubscribed } from '../queries/streams.js';
import type { ActionContext } from './context.js';

export interface MovePlan {
  message: MessageRow;
  origStream: StreamRow;
  targetStream: StreamRow;
  origTopic: string;
  targetTopic: string;
  propagateMode: PropagateMode;
}

export const streamChanged = (plan: MovePlan) => plan.origStream.id !== plan.targetStream.id;
export const topicChanged = (plan: MovePlan) => plan.origTopic !== plan.targetTopic;

/**
 * How many messages one statement touches. The embedded store runs each statement synchronously,
 * so its statements stay small enough for other requests to get in between; PostgreSQL works
 * beside the process, so there fewer, larger statements are cheaper.
 */
function batchSizes(ctx: ActionContext): { rows: number; userRows: number } {
  return ctx.services.store.kind === 'sqlite' ? { rows: 100, userRows: 40 } : { rows: 1000, userRows: 1000 };
}
/** At most this many people per statement. */
const PEOPLE_CHUNK = 1000;

/** How long a move runs statements back to back before letting other requests in. */
const SLICE_MS = 10;
let sliceStart = performance.now();

/**
 * Lets the event loop run between the statements of a long move, once per time slice. The
 * embedded store answers synchronously, so otherwise no other request would be served until the
 * move committed.
 */
async function yieldToOthers(): Promise<void> {
  if (performance.now() - sliceStart < SLICE_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  sliceStart = performance.now();
}

export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Condition: a message of this stream recipient and topic (topics match case-insensitively). */
export function inTopic(recipientId: number, topic: string): Expression<SqlBool> {
  return sql<SqlBool>`(message.recipient_id = ${recipientId} AND lower(message.subject) = lower(${topic}))`;
}

/** Condition: the viewer has a user_message row for the message. */
function receivedBy(userId: number): Expression<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM user_message um WHERE um.user_id = ${userId} AND um.message_id = message.id)`;
}

/** Whether the actor may read the stream's whole history (else only what they received). */
export async function seesWholeHistory(ctx: ActionContext, stream: StreamRow): Promise<boolean> {
  return canAccessStreamHistory(ctx.actor, stream, await isSubscribed(ctx.tx, ctx.actor.id, stream.recipient_id!));
}

/** A topic's messages the actor may see, oldest first, with their send times. */
export async function visibleTopicMessages(ctx: ActionContext, stream: StreamRow, topic: string, wholeHistory: boolean) {
  let query = ctx.tx.selectFrom('message').select(['message.id', 'message.date_sent']).where(inTopic(stream.recipient_id!, topic));
  if (!wholeHistory) query = query.where(receivedBy(ctx.actor.id));
  return query.orderBy('message.id').execute();
}

/**
 * The ids that move, ascending. Within a stream the whole selection moves (keeping topics
 * together); across streams only what the actor may read, so nobody gains access by moving.
 */
export async function selectMovedIds(ctx: ActionContext, plan: MovePlan): Promise<number[]> {
  if (plan.propagateMode === 'change_one') return [plan.message.id];
  let query = ctx.tx.selectFrom('message').select('message.id').where(inTopic(plan.origStream.recipient_id!, plan.origTopic));
  if (plan.propagateMode === 'change_later') query = query.where('message.id', '>=', plan.message.id);
  if (streamChanged(plan) && !(await seesWholeHistory(ctx, plan.origStream))) query = query.where(receivedBy(ctx.actor.id));
  const ids = (await query.orderBy('message.id').execute()).map((r) => r.id);
  return ids.includes(plan.message.id) ? ids : [...ids, plan.message.id].sort((a, b) => a - b);
}

/** Prepends an entry to the stored history (newest first) in SQL, without reading the rows. */
function prependHistory(entry: EditHistoryEntry) {
  const json = JSON.stringify(entry);
  return sql<string>`CASE WHEN edit_history IS NULL THEN ${`[${json}]`} ELSE ${`[${json},`} || substr(edit_history, 2) END`;
}

/** Writes the edit on the target (full entry) and the move on the others (move-only entry). */
export async function writeMovedRows(
  ctx: ActionContext,
  plan: MovePlan,
  ids: readonly number[],
  targetEntry: EditHistoryEntry,
  othersEntry: EditHistoryEntry,
): Promise<void> {
  const location = { recipient_id: plan.targetStream.recipient_id!, subject: plan.targetTopic };
  const stamps = { last_edit_time: ctx.now, last_moved_time: ctx.now };
  await ctx.tx
    .updateTable('message')
    .set({ ...location, ...stamps, edit_history: prependHistory(targetEntry) })
    .where('id', '=', plan.message.id)
    .execute();
  const others = ids.filter((id) => id !== plan.message.id);
  for (const part of chunks(others, batchSizes(ctx).rows)) {
    await yieldToOthers();
    await ctx.tx
      .updateTable('message')
      .set({ ...location, ...stamps, edit_history: prependHistory(othersEntry) })
      .where('id', 'in', part)
      .execute();
  }
}

/** Records an edit that moves nothing (content only) on the one message. */
export async function writeEditedRow(ctx: ActionContext, messageId: number, entry: EditHistoryEntry): Promise<void> {
  await ctx.tx
    .updateTable('message')
    .set({ last_edit_time: ctx.now, edit_history: prependHistory(entry) })
    .where('id', '=', messageId)
    .execute();
}

export interface Member {
  user_id: number;
  role: number;
  is_active: number;
}

/** A stream's subscribers with their roles: current ones, or everyone who ever subscribed. */
export async function streamMembers(ctx: ActionContext, recipientId: number, activeOnly: boolean): Promise<Member[]> {
  let query = ctx.tx
    .selectFrom('subscription')
    .innerJoin('user_profile', 'user_profile.id', 'subscription.user_id')
    .select(['subscription.user_id', 'user_profile.role', 'user_profile.is_active'])
    .where('subscription.recipient_id', '=', recipientId);
  if (activeOnly) query = query.where('subscription.active', '=', 1);
  return query.execute();
}

export interface StreamMoveAccess {
  /** Everyone whose rows for the moved messages go (see lib/move-access.ts). */
  losingRows: number[];
  /** Of those, the people who can no longer read the messages at all: they see a deletion. */
  losingAccess: number[];
}

/** Everyone holding a row for one of the messages, with their roles. */
async function holdersOf(ctx: ActionContext, ids: readonly number[]): Promise<Map<number, number>> {
  const roles = new Map<number, number>();
  for (const part of chunks(ids, batchSizes(ctx).rows)) {
    await yieldToOthers();
    const rows = await ctx.tx
      .selectFrom('user_message')
      .innerJoin('user_profile', 'user_profile.id', 'user_message.user_id')
      .select(['user_message.user_id', 'user_profile.role'])
      .distinct()
      .where('user_message.message_id', 'in', part)
      .execute();
    for (const r of rows) roles.set(r.user_id, r.role);
  }
  return roles;
}

/**
 * Who loses the moved messages when they change stream (computed before anything moves): old
 * subscribers, and anyone else holding a row (starred, reacted, read as history), by one rule.
 */
export async function streamMoveAccess(ctx: ActionContext, plan: MovePlan, ids: readonly number[]): Promise<StreamMoveAccess> {
  const oldEver = await streamMembers(ctx, plan.origStream.recipient_id!, false);
  const onNew = new Set((await streamMembers(ctx, plan.targetStream.recipient_id!, true)).map((m) => m.user_id));
  const onOld = new Set(oldEver.map((m) => m.user_id));
  const holders = await holdersOf(ctx, ids);
  const roles = new Map([...holders, ...oldEver.map((m) => [m.user_id, m.role] as const)]);
  const access: StreamMoveAccess = { losingRows: [], losingAccess: [] };
  for (const [userId, role] of roles) {
    const party = { role, onTarget: onNew.has(userId), everOnOrigin: onOld.has(userId), holdsRow: holders.has(userId) };
    const outcome = moveOutcome(plan.targetStream, party);
    if (outcome.dropsRows) access.losingRows.push(userId);
    if (outcome.toldDeleted) access.losingAccess.push(userId);
  }
  return access;
}

const historyPublic = (stream: StreamRow) => !stream.invite_only || Boolean(stream.history_public_to_subscribers);

/**
 * Moves the user_message rows with the messages: those streamMoveAccess names lose theirs, and in
 * a destination with protected history every current subscriber gets one (read).
 */
export async function moveUserMessages(ctx: ActionContext, plan: MovePlan, ids: readonly number[], access: StreamMoveAccess) {
  if (subscribersGainRows(plan.targetStream)) {
    for (const part of chunks(ids, batchSizes(ctx).rows)) {
      const pairs = ctx.tx
        .selectFrom('subscription')
        .innerJoin('message', (join) => join.on('message.id', 'in', part))
        .select(['subscription.user_id', 'message.id', sql<number>`${FLAG_BITS.read}`.as('flags')])
        .where('subscription.recipient_id', '=', plan.targetStream.recipient_id!)
        .where('subscription.active', '=', 1);
      await yieldToOthers();
      await ctx.tx
        .insertInto('user_message')
        .columns(['user_id', 'message_id', 'flags'])
        .expression(pairs)
        .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
        .execute();
    }
  }
  for (const users of chunks(access.losingRows, PEOPLE_CHUNK)) {
    for (const part of chunks(ids, batchSizes(ctx).userRows)) {
      await yieldToOthers();
      await ctx.tx.deleteFrom('user_message').where('message_id', 'in', part).where('user_id', 'in', users).execute();
    }
  }
}

/**
 * Who hears of an edit besides those holding the message: when the old stream's history is
 * shared, current subscribers (of both streams on a move) learn of it too, as having read it.
 * Guests who are only on the new stream are left out, as are people who lost access.
 */
export function subscriberAudience(
  origStream: StreamRow,
  holders: ReadonlySet<number>,
  access: StreamMoveAccess | null,
  oldActive: Member[],
  newActive: Member[],
): number[] {
  if (!historyPublic(origStream)) return [];
  const losing = new Set(access?.losingAccess ?? []);
  const onOld = new Set(oldActive.map((m) => m.user_id));
  const candidates = access ? [...newActive, ...oldActive] : oldActive;
  const out = new Set<number>();
  for (const m of candidates) {
    if (!m.is_active || holders.has(m.user_id) || losing.has(m.user_id)) continue;
    if (access && m.role === Role.GUEST && !onOld.has(m.user_id)) continue;
    out.add(m.user_id);
  }
  return [...out];
}
