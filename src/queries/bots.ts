// Reads about bot accounts: what their administrators are shown, and who those administrators are.
import type { BotServiceRow, DbOrTx, StreamRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { type BotDict, botDict } from '../lib/bot-format.js';
import { hasContentAccess } from '../lib/stream-topics.js';
import { getStreamByName, isSubscribed } from './streams.js';
import { activeHumanAdminIds } from './users.js';

/** Stream names by id, deactivated streams included (a bot's default may outlive its stream's archiving). */
async function streamNames(db: DbOrTx, ids: number[]): Promise<Map<number, StreamRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('stream').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((s) => [s.id, s]));
}

export async function servicesOf(db: DbOrTx, botIds: number[]): Promise<Map<number, BotServiceRow[]>> {
  const byBot = new Map<number, BotServiceRow[]>();
  if (botIds.length === 0) return byBot;
  const rows = await db.selectFrom('bot_service').selectAll().where('bot_id', 'in', botIds).orderBy('id').execute();
  for (const row of rows) byBot.set(row.bot_id, [...(byBot.get(row.bot_id) ?? []), row]);
  return byBot;
}

/** The bots as realm_bots and realm_bot/add describe them, default stream names and services filled in. */
export async function botDicts(db: DbOrTx, bots: UserRow[]): Promise<BotDict[]> {
  const streamIds = bots.flatMap((b) => [b.default_sending_stream_id, b.default_events_register_stream_id]);
  const streams = await streamNames(db, [...new Set(streamIds.filter((id): id is number => id !== null))]);
  const services = await servicesOf(db, bots.map((b) => b.id));
  const nameOf = (id: number | null) => (id === null ? null : (streams.get(id)?.name ?? null));
  return bots.map((bot) =>
    botDict(bot, {
      defaultSendingStream: nameOf(bot.default_sending_stream_id),
      defaultEventsRegisterStream: nameOf(bot.default_events_register_stream_id),
      services: services.get(bot.id) ?? [],
    }),
  );
}

export async function botDictOf(db: DbOrTx, bot: UserRow): Promise<BotDict> {
  return (await botDicts(db, [bot]))[0]!;
}

/**
 * Who hears about a bot's changes: its owner and the realm's active human administrators; only
 * the owner when a default stream of the bot is private, as administrators may not see that stream.
 */
export async function botAudienceIds(db: DbOrTx, bot: UserRow): Promise<number[]> {
  const ids = [bot.default_sending_stream_id, bot.default_events_register_stream_id].filter((id): id is number => id !== null);
  const streams = await streamNames(db, ids);
  const isPrivate = [...streams.values()].some((s) => s.invite_only);
  if (isPrivate && bot.bot_owner_id !== null) return [bot.bot_owner_id];
  const admins = await activeHumanAdminIds(db, bot.realm_id);
  return bot.bot_owner_id === null || admins.includes(bot.bot_owner_id) ? admins : [...admins, bot.bot_owner_id];
}

/** A stream the user may read, by name, as a bot's default; the reference's text for all refusals. */
export async function accessStreamByName(db: DbOrTx, viewer: UserRow, name: string): Promise<StreamRow> {
  const stream = await getStreamByName(db, viewer.realm_id, name);
  if (stream && hasContentAccess(viewer, stream, await isSubscribed(db, viewer.id, stream.recipient_id!))) return stream;
  throw new ApiError(`Invalid channel name '${name}'`);
}

/** GET /bots: the user's own active bots, oldest first. */
export function ownActiveBots(db: DbOrTx, owner: UserRow): Promise<UserRow[]> {
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', owner.realm_id)
    .where('bot_owner_id', '=', owner.id)
    .where('is_bot', '=', 1)
    .where('is_active', '=', 1)
    .orderBy('date_joined')
    .orderBy('id')
    .execute();
}
