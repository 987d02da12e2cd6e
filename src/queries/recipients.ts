// Lookups for addressing messages: users by id or email, direct-message groups, recipients.
import { sql } from 'kysely';
import type { DbOrTx, UserRow } from '../db/schema.js';
import { isStorableId } from './users.js';

export function usersByIds(db: DbOrTx, realmId: number, ids: number[]): Promise<UserRow[]> {
  // An id no column can hold names nobody (and PostgreSQL would refuse to compare with it).
  const storable = ids.filter(isStorableId);
  if (storable.length === 0) return Promise.resolve([]);
  return db.selectFrom('user_profile').selectAll().where('realm_id', '=', realmId).where('id', 'in', storable).execute();
}

/** Users whose API or real email matches one of `emails`, case-insensitively. */
export function usersByEmails(db: DbOrTx, realmId: number, emails: string[]): Promise<UserRow[]> {
  if (emails.length === 0) return Promise.resolve([]);
  const lowered = emails.map((e) => e.toLowerCase());
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where((eb) => eb.or([eb(sql`lower(email)`, 'in', lowered), eb(sql`lower(delivery_email)`, 'in', lowered)]))
    .execute();
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
