// Reading user statuses.
import type { DbOrTx, UserRow } from '../db/schema.js';
import { resolveSettings } from '../lib/settings-registry.js';
import { type StoredStatus, userStatusDict, type UserStatusDict } from '../lib/user-status.js';
import { accessActiveHumanById } from './users.js';

const presenceEnabled = (settings: string) => resolveSettings(settings).presence_enabled !== false;

export function storedStatusOf(db: DbOrTx, userId: number): Promise<StoredStatus | undefined> {
  return db
    .selectFrom('user_status')
    .select(['status_text', 'emoji_name', 'emoji_code', 'reaction_type'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** One user's status: empty when they never set one. */
export async function userStatusOf(db: DbOrTx, user: Pick<UserRow, 'id' | 'settings'>): Promise<UserStatusDict> {
  const row = await storedStatusOf(db, user.id);
  return row ? userStatusDict(row, presenceEnabled(user.settings)) : {};
}

/** The register's user_status: every active user of the realm whose status shows something, by id. */
export async function realmUserStatuses(db: DbOrTx, realmId: number): Promise<Record<string, UserStatusDict>> {
  const rows = await db
    .selectFrom('user_status as s')
    .innerJoin('user_profile as u', 'u.id', 's.user_id')
    .select(['s.user_id', 's.status_text', 's.emoji_name', 's.emoji_code', 's.reaction_type', 'u.settings'])
    .where('u.realm_id', '=', realmId)
    .where('u.is_active', '=', 1)
    .orderBy('s.user_id')
    .execute();
  const statuses: Record<string, UserStatusDict> = {};
  for (const row of rows) {
    const dict = userStatusDict(row, presenceEnabled(row.settings));
    if (Object.keys(dict).length > 0) statuses[String(row.user_id)] = dict;
  }
  return statuses;
}

/** GET /users/{user_id}/status: an active human of the realm (the reference's access_user_by_id). */
export async function accessUserStatus(db: DbOrTx, realmId: number, userId: number): Promise<UserStatusDict> {
  return userStatusOf(db, await accessActiveHumanById(db, realmId, userId));
}
