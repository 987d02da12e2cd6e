// Stream and subscription lookups.
import { sql } from 'kysely';
import type { DbOrTx, StreamRow } from '../db/schema.js';

export function getStreamById(db: DbOrTx, realmId: number, id: number): Promise<StreamRow | undefined> {
  return db
    .selectFrom('stream')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('id', '=', id)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

export function getStreamByName(db: DbOrTx, realmId: number, name: string): Promise<StreamRow | undefined> {
  return db
    .selectFrom('stream')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

/** Active subscriber ids of a stream's recipient. */
export async function subscriberIds(db: DbOrTx, recipientId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('subscription')
    .innerJoin('user_profile', 'user_profile.id', 'subscription.user_id')
    .select('subscription.user_id')
    .where('subscription.recipient_id', '=', recipientId)
    .where('subscription.active', '=', 1)
    .where('user_profile.is_active', '=', 1)
    .execute();
  return rows.map((r) => r.user_id);
}

export async function isSubscribed(db: DbOrTx, userId: number, recipientId: number): Promise<boolean> {
  const row = await db
    .selectFrom('subscription')
    .select('id')
    .where('user_id', '=', userId)
    .where('recipient_id', '=', recipientId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}
