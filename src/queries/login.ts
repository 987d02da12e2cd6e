// Logging in: which account a username and password (or, on development servers, a bare
// username) stand for. Nothing is written; the answer is the user whose API key is handed out.
import { sql } from 'kysely';
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import {
  ApiError,
  AuthenticationFailedError,
  InvalidSubdomainError,
  RealmDeactivatedError,
  UserDeactivatedError,
} from '../errors.js';
import { dummyPasswordHash, isLoginEmail, verifyPassword } from '../lib/credentials.js';
import { isAdmin } from '../lib/roles.js';

/** Usernames are email addresses here (no LDAP), so anything else is refused before any lookup. */
function checkLoginEmail(username: string): void {
  if (!isLoginEmail(username)) throw new ApiError('Enter a valid email address.');
}

/**
 * The accounts with this email, this organization's first, then others oldest first. One query
 * for every login, whether or not the address is known here, so the lookup costs the same either way.
 */
function findAccounts(db: DbOrTx, email: string, realmId: number): Promise<UserRow[]> {
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where(sql`lower(delivery_email)`, '=', email.toLowerCase())
    .orderBy(sql`case when realm_id = ${realmId} then 0 else 1 end`)
    .orderBy('id')
    .limit(20)
    .execute();
}

function findByDeliveryEmail(db: DbOrTx, email: string, realmId: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where(sql`lower(delivery_email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

function findInOtherRealms(db: DbOrTx, email: string, realmId: number): Promise<UserRow[]> {
  return db
    .selectFrom('user_profile')
    .selectAll()
    .where('realm_id', '<>', realmId)
    .where(sql`lower(delivery_email)`, '=', email.toLowerCase())
    .limit(20)
    .execute();
}

/** Deactivation, reported only once the caller has proven who they are. */
function checkActive(realm: RealmRow, user: UserRow): UserRow {
  if (realm.deactivated) throw new RealmDeactivatedError();
  if (!user.is_active) throw new UserDeactivatedError();
  return user;
}

/**
 * POST /fetch_api_key: the account for an email and password. Every attempt costs one lookup and
 * exactly one password check: against the account here, or else against the first account with
 * this address in another organization, or else against a dummy hash; so a refusal takes as long
 * whether the address is known here, elsewhere or nowhere. A wrong password and an unknown email
 * get the same answer; whether the account or its organization is deactivated, or lives in another
 * organization, is told only to someone who knows its password.
 */
export async function checkPasswordLogin(
  db: DbOrTx,
  realm: RealmRow | undefined,
  username: string,
  password: string,
): Promise<UserRow> {
  if (!realm) throw new InvalidSubdomainError();
  checkLoginEmail(username);
  // An empty password never matches, whatever is stored.
  if (password === '') throw new AuthenticationFailedError();
  const accounts = await findAccounts(db, username, realm.id);
  const user = accounts.find((account) => account.realm_id === realm.id);
  const elsewhere = user ? undefined : accounts.find((account) => account.password_hash);
  const stored = (user ?? elsewhere)?.password_hash ?? null;
  const matches = await verifyPassword(password, stored ?? (await dummyPasswordHash()));
  // Matching the dummy proves nothing.
  if (!matches || stored === null) throw new AuthenticationFailedError();
  if (user) return checkActive(realm, user);
  throw new InvalidSubdomainError();
}

function checkDevAuthEnabled(devMode: boolean): void {
  if (!devMode) throw new ApiError('Endpoint not available in production.');
}

/** POST /dev_fetch_api_key: on development servers, any account by its email alone. */
export async function checkDevLogin(
  db: DbOrTx,
  devMode: boolean,
  realm: RealmRow | undefined,
  username: string,
): Promise<UserRow> {
  checkDevAuthEnabled(devMode);
  checkLoginEmail(username);
  if (!realm) throw new InvalidSubdomainError();
  const user = await findByDeliveryEmail(db, username, realm.id);
  if (user) return checkActive(realm, user);
  if ((await findInOtherRealms(db, username, realm.id)).length > 0) throw new InvalidSubdomainError();
  throw new AuthenticationFailedError();
}

export interface DevUser {
  email: string;
  realm_uri: string;
  realm_url: string;
}

/** GET /dev_list_users: the people (not bots) a development server offers to log in as, by email. */
export async function listDevUsers(
  db: DbOrTx,
  devMode: boolean,
): Promise<{ direct_admins: DevUser[]; direct_users: DevUser[] }> {
  checkDevAuthEnabled(devMode);
  const rows = await db
    .selectFrom('user_profile')
    .innerJoin('realm', 'realm.id', 'user_profile.realm_id')
    .select(['user_profile.delivery_email', 'user_profile.role', 'realm.url'])
    .where('user_profile.is_active', '=', 1)
    .where('user_profile.is_bot', '=', 0)
    .orderBy('user_profile.delivery_email')
    .orderBy('user_profile.id')
    .execute();
  const entry = (row: (typeof rows)[number]): DevUser => ({
    email: row.delivery_email,
    realm_uri: row.url,
    realm_url: row.url,
  });
  return {
    direct_admins: rows.filter((row) => isAdmin(row)).map(entry),
    direct_users: rows.filter((row) => !isAdmin(row)).map(entry),
  };
}
