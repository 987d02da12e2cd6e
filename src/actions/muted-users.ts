// Muting and unmuting users. Muting marks the muted user's messages read for the muter;
// later messages from them arrive read (queries/recipient-preferences.ts does that at send time).
import { sql } from 'kysely';
import type { UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import { isMuted, mutedUsersOf } from '../queries/muted-users.js';
import { getUserById } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { readEvent } from './mark-read.js';

/** Any user of the realm may be muted or unmuted: active or not, bots included. */
async function accessMutableUser(ctx: ActionContext, userId: number): Promise<UserRow> {
  const user = await getUserById(ctx.tx, ctx.realm.id, userId);
  if (!user) throw new ApiError('No such user');
  return user;
}

async function announceMutedUsers(ctx: ActionContext): Promise<void> {
  ctx.events.send({ type: 'muted_users', muted_users: await mutedUsersOf(ctx.tx, ctx.actor.id) }, [ctx.actor.id]);
}

/** Marks every unread message the muted user sent to the muter as read; returns their ids. */
async function markMessagesFromRead(ctx: ActionContext, senderId: number): Promise<number[]> {
  const read = FLAG_BITS.read;
  const rows = await ctx.tx
    .updateTable('user_message')
    .set({ flags: sql`flags | ${read}` })
    .where('user_id', '=', ctx.actor.id)
    // Literal, so that the partial index of unread rows applies; each unread row then costs one lookup.
    .where(sql`(flags & ${sql.lit(read)})`, '=', 0)
    .where(sql<boolean>`EXISTS (SELECT 1 FROM message m WHERE m.id = user_message.message_id AND m.sender_id = ${senderId})`)
    .returning('message_id')
    .execute();
  return rows.map((row) => row.message_id).sort((a, b) => a - b);
}

export async function doMuteUser(ctx: ActionContext, mutedUserId: number): Promise<void> {
  if (mutedUserId === ctx.actor.id) throw new ApiError('Cannot mute self');
  const target = await accessMutableUser(ctx, mutedUserId);
  if (await isMuted(ctx.tx, ctx.actor.id, target.id)) throw new ApiError('User already muted');
  await ctx.tx.insertInto('muted_user').values({ user_id: ctx.actor.id, muted_user_id: target.id, date_muted: ctx.now }).execute();
  const messages = await markMessagesFromRead(ctx, target.id);
  if (messages.length > 0) ctx.events.send(readEvent(messages, false), [ctx.actor.id]);
  await announceMutedUsers(ctx);
}

/** Unmuting leaves the messages marked read while muted as they are. */
export async function doUnmuteUser(ctx: ActionContext, mutedUserId: number): Promise<void> {
  const target = await accessMutableUser(ctx, mutedUserId);
  if (!(await isMuted(ctx.tx, ctx.actor.id, target.id))) throw new ApiError('User is not muted');
  await ctx.tx.deleteFrom('muted_user').where('user_id', '=', ctx.actor.id).where('muted_user_id', '=', target.id).execute();
  await announceMutedUsers(ctx);
}
