// The organization's custom emoji, as GET /realm/emoji and the register state's realm_emoji list
// them: keyed by emoji id, deactivated ones included (old messages still show them).
import { isStorableText } from './users.js';
import type { DbOrTx, RealmEmojiRow } from '../db/schema.js';
import { type RealmEmojiDict, realmEmojiDict } from '../lib/realm-images.js';

export type { RealmEmojiDict } from '../lib/realm-images.js';

export async function realmEmojiRows(db: DbOrTx, realmId: number): Promise<RealmEmojiRow[]> {
  return db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).orderBy('id').execute();
}

export async function realmEmojiOf(db: DbOrTx, realmId: number): Promise<Record<string, RealmEmojiDict>> {
  const emoji: Record<string, RealmEmojiDict> = {};
  for (const row of await realmEmojiRows(db, realmId)) emoji[String(row.id)] = realmEmojiDict(row);
  return emoji;
}

/** The active custom emoji of that name, if there is one. */
export async function activeRealmEmoji(db: DbOrTx, realmId: number, name: string): Promise<RealmEmojiRow | undefined> {
  // No emoji's name holds a NUL, which PostgreSQL text cannot store (and refuses in a query).
  if (!isStorableText(name)) return undefined;
  return db
    .selectFrom('realm_emoji')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('name', '=', name)
    .where('deactivated', '=', 0)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The active custom emoji among these names, by name (for rendering :name:). */
export async function activeRealmEmojiNamed(db: DbOrTx, realmId: number, names: string[]): Promise<Map<string, RealmEmojiRow>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('realm_emoji')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('name', 'in', names)
    .where('deactivated', '=', 0)
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.name, r]));
}

/** A custom emoji by its id (the reaction's emoji_code), active or not. */
export async function realmEmojiById(db: DbOrTx, realmId: number, id: number): Promise<RealmEmojiRow | undefined> {
  return db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}
