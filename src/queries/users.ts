// User lookups.
import { sql } from 'kysely';
import type { Store } from '../db/connect.js';
import { prepare } from '../db/prepared.js';
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { Role } from '../lib/roles.js';
import { emailNamesUser, placeholderUserId } from '../lib/user-format.js';

/** Ids are 32-bit integer columns on PostgreSQL; anything else names no row. */
export const isStorableId = (id: number) => Number.isInteger(id) && Math.abs(id) <= 2_147_483_647;

/** Text with NUL cannot be stored on PostgreSQL, so it matches nothing. */
export const isStorableText = (text: string) => !text.includes('\u0000');

export function getUserById(db: DbOrTx, realmId: number, id: number): Promise<UserRow | undefined> {
  if (!isStorableId(id)) return Promise.resolve(undefined);
  return db.selectFrom('user_profile').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

/** By API email or real email, case-insensitively. */
export function getUserByEmail(db: DbOrTx, realmId: number, email: string): Promise<UserRow | undefined> {
  if (!isStorableText(email)) return Promise.resolve(undefined);
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

/** Users of the realm with the given ids (missing ids are simply absent). */
export function getUsersByIds(db: DbOrTx, realmId: number, ids: number[]): Promise<UserRow[]> {
  const storable = [...new Set(ids)].filter(isStorableId);
  if (storable.length === 0) return Promise.resolve([]);
  return db.selectFrom('user_profile').selectAll().where('realm_id', '=', realmId).where('id', 'in', storable).execute();
}

/** The highest message id the user has a user_message row for, -1 when none. */
// Every register and GET /users/me reads it, so the query is compiled once.
const maxMessageId = prepare<[number], { max_id: number | string | null }>(1, (db, userId) =>
  db.selectFrom('user_message').select((eb) => eb.fn.max('message_id').as('max_id')).where('user_id', '=', userId),
);

const maxIdOf = (rows: ReadonlyArray<{ max_id: number | string | null }>) => (rows[0]?.max_id == null ? -1 : Number(rows[0].max_id));

export async function maxMessageIdForUser(db: DbOrTx, userId: number): Promise<number> {
  return maxIdOf(await maxMessageId.all(db, userId));
}

/** The same, read at once on SQLite: an index's last entry for the user. */
export async function maxMessageIdNow(store: Store, userId: number): Promise<number> {
  return maxIdOf(await maxMessageId.allNow(store, userId));
}

/** How many active users the realm has, leaving out the given ids (the realm's own system bot). */
export async function countActiveUsers(db: DbOrTx, realmId: number, excluding: number[] = []): Promise<number> {
  let query = db
    .selectFrom('user_profile')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1);
  if (excluding.length > 0) query = query.where('id', 'not in', excluding);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countActiveHumanOwners(db: DbOrTx, realmId: number): Promise<number> {
  const row = await db
    .selectFrom('user_profile')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .where('is_bot', '=', 0)
    .where('role', '=', Role.OWNER)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Active users of the realm (id and role only), for deciding who may see what. */
export function activeUserRoles(db: DbOrTx, realmId: number): Promise<Array<Pick<UserRow, 'id' | 'role'>>> {
  return db.selectFrom('user_profile').select(['id', 'role']).where('realm_id', '=', realmId).where('is_active', '=', 1).orderBy('id').execute();
}

/** Active bots owned by the user. */
export function activeBotsOwnedBy(db: DbOrTx, realmId: number, ownerId: number): Promise<UserRow[]> {
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('bot_owner_id', '=', ownerId)
    .where('is_bot', '=', 1)
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
}

/** Whether an active user of the realm already has exactly this full name. */
export async function activeUserNamed(db: DbOrTx, realmId: number, fullName: string): Promise<boolean> {
  const row = await db
    .selectFrom('user_profile')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .where('full_name', '=', fullName)
    .executeTakeFirst();
  return row !== undefined;
}

/** Ids of the realm's active human administrators (owners included). */
export async function activeHumanAdminIds(db: DbOrTx, realmId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_profile')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('is_active', '=', 1)
    .where('is_bot', '=', 0)
    .where('role', '<=', Role.ADMINISTRATOR)
    .execute();
  return rows.map((r) => r.id);
}

/** GET /users/{user_id}: any user of the realm, active or not, bots included. */
export async function accessUserById(db: DbOrTx, realmId: number, userId: number): Promise<UserRow> {
  const user = await getUserById(db, realmId, userId);
  if (!user) throw new ApiError('No such user');
  return user;
}

/**
 * The reference's access_user_by_id for reads about another user: an active human of the realm;
 * bots and unknown ids are "No such user".
 */
export async function accessActiveHumanById(db: DbOrTx, realmId: number, userId: number): Promise<UserRow> {
  const user = await getUserById(db, realmId, userId);
  if (!user || user.is_bot) throw new ApiError('No such user');
  if (!user.is_active) throw new ApiError('User is deactivated');
  return user;
}

/**
 * The user an address names for `viewer` (see emailNamesUser): by API email, by real address when
 * the viewer may see it, or by the placeholder form user{id}@{realm host}.
 */
export async function findUserByEmailFor(db: DbOrTx, viewer: UserRow, realm: RealmRow, email: string): Promise<UserRow | undefined> {
  return (await findUsersByEmailsFor(db, viewer, realm, [email])).get(email);
}

/** Each address that names a user for `viewer`, mapped to that user; the others are absent. */
export async function findUsersByEmailsFor(
  db: DbOrTx,
  viewer: UserRow,
  realm: RealmRow,
  emails: readonly string[],
): Promise<Map<string, UserRow>> {
  const found = new Map<string, UserRow>();
  const lowered = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(isStorableText))];
  if (lowered.length === 0) return found;
  const placeholderIds = lowered.flatMap((e) => placeholderUserId(e, realm.url) ?? []).filter(isStorableId);
  const candidates = await db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realm.id)
    .where((eb) =>
      eb.or([
        eb(sql`lower(email)`, 'in', lowered),
        eb(sql`lower(delivery_email)`, 'in', lowered),
        ...(placeholderIds.length > 0 ? [eb('id', 'in', placeholderIds)] : []),
      ]),
    )
    .orderBy('id')
    .execute();
  for (const email of emails) {
    // An API email match wins over another user's real address that happens to be the same text.
    const byApiEmail = candidates.find((u) => u.email.toLowerCase() === email.trim().toLowerCase());
    const user = byApiEmail ?? candidates.find((u) => emailNamesUser(viewer, u, email, realm.url));
    if (user) found.set(email, user);
  }
  return found;
}

/** GET /users/{email}: a hidden address answers exactly like an unknown one. */
export async function accessUserByEmail(db: DbOrTx, viewer: UserRow, realm: RealmRow, email: string): Promise<UserRow> {
  const user = await findUserByEmailFor(db, viewer, realm, email);
  if (!user) throw new ApiError('No such user');
  return user;
}
