// Lookups for addressing messages: users by id or email, direct-message groups, recipients.
import type { DbOrTx, UserRow } from '../db/schema.js';
import { isStorableId } from './users.js';

export function usersByIds(db: DbOrTx, realmId: number, ids: number[]): Promise<UserRow[]> {
  // An id no column can hold names nobody (and PostgreSQL would refuse to compare with it).
  const storable = ids.filter(isStorableId);
  if (storable.length === 0) return Promise.resolve([]);
  return db.selectFrom('user_profile').selectAll().where('realm_id', '=', realmId).where('id', 'in', storable).execute();
}

export async function directMessageGroupRecipient(db: DbOrTx, huddleHash: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('direct_message_group')
    .select('recipient_id')
    .where('huddle_hash', '=', huddleHash)
    .executeTakeFirst();
  return row?.recipient_id ?? undefined;
}

/** The sorted, comma-joined member ids that identify a direct-message group. */
export function huddleHashOf(userIds: Iterable<number>): string {
  return [...new Set(userIds)].sort((a, b) => a - b).join(',');
}
