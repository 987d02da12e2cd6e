// Adding and removing personal flags (read, starred, collapsed) on messages by id.
import { sql } from 'kysely';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { chunks, SQL_IN_CHUNK } from '../lib/limits.js';
import { EDITABLE_FLAGS, FLAG_BITS, type FlagName, isFlagName } from '../lib/message-flags.js';
import { accessMessage } from '../queries/messages.js';
import { unreadDetails } from '../queries/unread-details.js';
import type { ActionContext } from './context.js';

const HIDDEN_FLAGS: readonly FlagName[] = ['is_private', 'active_mobile_push_notification'];

/** The reference's checks, in its order: the flag exists, may be edited, and the operation is known. */
export function checkFlagChange(flag: string, op: string): { flag: FlagName; adding: boolean } {
  if (!isFlagName(flag) || HIDDEN_FLAGS.includes(flag)) throw new ApiError(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag)) throw new ApiError(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw new ApiError(`Invalid message flag operation: '${op}'`);
  return { flag, adding: op === 'add' };
}

/**
 * Stream messages among `ids` whose stream the user is not subscribed to, with their stream ids.
 * Only messages the user may read count: any other id (another organization's, a private
 * stream's, a missing one) is refused as every route refuses it, so that skipping it without a
 * word does not tell that it exists.
 */
async function inUnsubscribedStreams(ctx: ActionContext, ids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const part of chunks(ids)) {
    const rows = await ctx.tx
      .selectFrom('message as m')
      .innerJoin('recipient as r', 'r.id', 'm.recipient_id')
      .leftJoin('subscription as s', (join) =>
        join.onRef('s.recipient_id', '=', 'm.recipient_id').on('s.user_id', '=', ctx.actor.id).on('s.active', '=', 1),
      )
      .leftJoin('user_message as um', (join) => join.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', ctx.actor.id))
      .select(['m.id', 'r.type_id', 'um.message_id as received'])
      .where('m.id', 'in', part)
      .where('m.realm_id', '=', ctx.actor.realm_id)
      .where('r.type', '=', RecipientType.STREAM)
      .where('s.id', 'is', null)
      .execute();
    for (const row of rows) {
      if (row.received === null) await accessMessage(ctx.tx, ctx.actor, row.id);
      out.set(row.id, row.type_id);
    }
  }
  return out;
}

export interface FlagChange {
  /** Ids whose flag really changed, ascending. */
  messages: number[];
  /** When unread was asked for: streams whose messages were skipped for want of a subscription. */
  ignoredStreamIds: number[];
}

/** Applies the change and returns the ids whose flags really changed. */
export async function doUpdateMessageFlags(ctx: ActionContext, flagName: string, op: string, requested: number[]): Promise<number[]> {
  return (await changeMessageFlags(ctx, flagName, op, requested)).messages;
}

/**
 * The flag change itself. `accessChecked` says the caller already knows the user may read every
 * requested message (a narrow fetch found them), so historical rows need no further checks.
 */
export async function changeMessageFlags(
  ctx: ActionContext,
  flagName: string,
  op: string,
  requested: number[],
  options: { accessChecked?: boolean } = {},
): Promise<FlagChange> {
  const { flag, adding } = checkFlagChange(flagName, op);
  const bit = FLAG_BITS[flag];
  let ids = [...new Set(requested)];
  let ignoredStreamIds: number[] = [];
  // Unread stream messages must lie in streams the user is subscribed to: others are skipped.
  if (flag === 'read' && !adding) {
    const skipped = await inUnsubscribedStreams(ctx, ids);
    ids = ids.filter((id) => !skipped.has(id));
    ignoredStreamIds = [...new Set(skipped.values())].sort((a, b) => a - b);
  }
  const updated = ids.length === 0 ? [] : await applyFlag(ctx, ids, bit, adding, options.accessChecked ?? false);
  const messages = [...new Set(updated)].sort((a, b) => a - b);
  const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages, all: false };
  if (flag === 'read' && !adding) event.message_details = await unreadDetails(ctx.tx, ctx.actor.id, messages);
  ctx.events.send(event, [ctx.actor.id]);
  return { messages, ignoredStreamIds };
}

/** Sets or clears the bit on the user's rows, creating historical rows first; returns the changed ids. */
async function applyFlag(ctx: ActionContext, ids: number[], bit: number, adding: boolean, accessChecked: boolean): Promise<number[]> {
  const received = new Set<number>();
  for (const part of chunks(ids)) {
    const own = await ctx.tx.selectFrom('user_message').select('message_id').where('user_id', '=', ctx.actor.id).where('message_id', 'in', part).execute();
    for (const r of own) received.add(r.message_id);
  }
  // Flags on messages never received (stream history) live on new "historical" rows.
  const historical = [];
  for (const id of ids.filter((id) => !received.has(id))) {
    historical.push(accessChecked ? id : (await accessMessage(ctx.tx, ctx.actor, id)).message.id);
  }
  const flags = FLAG_BITS.read | FLAG_BITS.historical;
  // Three values per row: a third of a chunk of rows binds no more values than one IN list does.
  for (const part of chunks(historical, Math.floor(SQL_IN_CHUNK / 3))) {
    await ctx.tx.insertInto('user_message').values(part.map((message_id) => ({ user_id: ctx.actor.id, message_id, flags }))).execute();
  }
  const changed: number[] = [];
  for (const part of chunks(ids)) {
    const rows = await ctx.tx
      .updateTable('user_message')
      .set({ flags: adding ? sql`flags | ${bit}` : sql`flags & ${~bit}` })
      .where('user_id', '=', ctx.actor.id)
      .where('message_id', 'in', part)
      .where(sql`(flags & ${bit})`, adding ? '=' : '<>', 0)
      .returning('message_id')
      .execute();
    for (const r of rows) changed.push(r.message_id);
  }
  return changed;
}
