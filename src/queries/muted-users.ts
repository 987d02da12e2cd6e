// Reading whom a user has muted.
import type { DbOrTx } from '../db/schema.js';

export interface MutedUserDict {
  id: number;
  timestamp: number;
}

/** The muted_users list of /register and of muted_users events, in the order users were muted. */
export async function mutedUsersOf(db: DbOrTx, userId: number): Promise<MutedUserDict[]> {
  const rows = await db
    .selectFrom('muted_user')
    .select(['muted_user_id', 'date_muted'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.muted_user_id, timestamp: Number(row.date_muted) }));
}

export async function isMuted(db: DbOrTx, userId: number, mutedUserId: number): Promise<boolean> {
  const row = await db
    .selectFrom('muted_user')
    .select('id')
    .where('user_id', '=', userId)
    .where('muted_user_id', '=', mutedUserId)
    .executeTakeFirst();
  return row !== undefined;
}
