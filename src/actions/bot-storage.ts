// The key-value state the bots framework keeps for a bot (GET/PUT/DELETE /bot_storage). The
// reference lets any account use it; the size limit counts characters of keys and values together.
import type { DbOrTx } from '../db/schema.js';
import { ApiError } from '../errors.js';
import type { ActionContext } from './context.js';

/** The reference's USER_STATE_SIZE_LIMIT, in characters. */
export const USER_STATE_SIZE_LIMIT = 10_000_000;

const chars = (text: string) => [...text].length;

async function storedEntries(db: DbOrTx, userId: number, keys?: string[]) {
  let query = db.selectFrom('bot_storage_data').select(['key', 'value']).where('bot_id', '=', userId);
  if (keys !== undefined) {
    if (keys.length === 0) return [];
    query = query.where('key', 'in', keys);
  }
  return query.orderBy('id').execute();
}

/** The values of the keys asked for, or of every key; an unknown key refuses the whole request. */
export async function getBotStorage(db: DbOrTx, userId: number, keys: string[] | undefined): Promise<Record<string, string>> {
  const rows = await storedEntries(db, userId, keys);
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const storage: Record<string, string> = {};
  for (const key of keys ?? [...stored.keys()]) {
    const value = stored.get(key);
    if (value === undefined) throw new ApiError('Key does not exist.');
    storage[key] = value;
  }
  return storage;
}

/** Sets every entry, or none when the bot's state would outgrow the limit. */
export async function putBotStorage(ctx: ActionContext, storage: Record<string, string>): Promise<void> {
  const entries = Object.entries(storage);
  const current = await storedEntries(ctx.tx, ctx.actor.id);
  const sizes = new Map(current.map((r) => [r.key, chars(r.key) + chars(r.value)]));
  let size = [...sizes.values()].reduce((a, b) => a + b, 0);
  for (const [key, value] of entries) size += chars(key) + chars(value) - (sizes.get(key) ?? 0);
  if (size > USER_STATE_SIZE_LIMIT) {
    throw new ApiError(
      `Request exceeds storage limit by ${size - USER_STATE_SIZE_LIMIT} characters. The limit is ${USER_STATE_SIZE_LIMIT} characters.`,
    );
  }
  for (const [key, value] of entries) {
    if (sizes.has(key)) {
      await ctx.tx.updateTable('bot_storage_data').set({ value }).where('bot_id', '=', ctx.actor.id).where('key', '=', key).execute();
    } else {
      await ctx.tx.insertInto('bot_storage_data').values({ bot_id: ctx.actor.id, key, value }).execute();
    }
  }
}

/** Removes the keys asked for, or every key; an unknown key refuses the whole request. */
export async function removeBotStorage(ctx: ActionContext, keys: string[] | undefined): Promise<void> {
  if (keys !== undefined) {
    const found = new Set((await storedEntries(ctx.tx, ctx.actor.id, keys)).map((r) => r.key));
    if (keys.some((key) => !found.has(key))) throw new ApiError('Key does not exist.');
    if (keys.length === 0) return;
  }
  let query = ctx.tx.deleteFrom('bot_storage_data').where('bot_id', '=', ctx.actor.id);
  if (keys !== undefined) query = query.where('key', 'in', keys);
  await query.execute();
}
