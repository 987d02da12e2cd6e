// User lookups.
import { sql } from 'kysely';
import type { DbOrTx, UserRow } from '../db/schema.js';

export function getUserById(db: DbOrTx, realmId: number, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('user_profile').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

/** By API email or real email, case-insensitively. */
export function getUserByEmail(db: DbOrTx, realmId: number, email: string): Promise<UserRow | undefined> {
  const lowered = email.toLowerCase();
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where((eb) => eb.or([eb(sql`lower(email)`, '=', lowered), eb(sql`lower(delivery_email)`, '=', lowered)]))
    .executeTakeFirst();
}

export function listUsers(db: DbOrTx, realmId: number, options: { activeOnly?: boolean } = {}): Promise<UserRow[]> {
  let query = db.selectFrom('user_profile').selectAll().where('realm_id', '=', realmId);
  if (options.activeOnly) query = query.where('is_active', '=', 1);
  return query.orderBy('id').execute();
}

export async function activeUserIds(db: DbOrTx, realmId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_profile')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .execute();
  return rows.map((r) => r.id);
}
