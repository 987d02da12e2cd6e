// Every user of an organization, for the lists POST /register and GET /users return. Reading and
// decoding a thousand rows costs more than the rest of a register, and the list changes rarely,
// so it is kept per organization until the store's counter for its users moves
// (realm_user_version, kept by triggers), which costs one indexed read per request.
import type { DbOrTx, UserRow } from '../db/schema.js';
import { BoundedMap } from '../lib/bounded-map.js';
import { listUsers } from './users.js';

interface Kept {
  version: number;
  users: readonly UserRow[];
}

/** Per store (tests run many side by side, with the same ids), then per organization. */
const kept = new WeakMap<DbOrTx, BoundedMap<number, Kept>>();
/** Organizations whose lists one process keeps at a time. */
const REALMS_KEPT = 64;

export async function usersVersion(db: DbOrTx, realmId: number): Promise<number> {
  const row = await db.selectFrom('realm_user_version').select('version').where('realm_id', '=', realmId).executeTakeFirst();
  return row?.version ?? 0;
}

/**
 * The organization's users by id, active or not. The rows are shared and frozen. The counter is
 * read first, so a list read after it is at least as new as the counter says.
 */
export async function realmUsers(db: DbOrTx, realmId: number): Promise<readonly UserRow[]> {
  const version = await usersVersion(db, realmId);
  let byRealm = kept.get(db);
  const hit = byRealm?.get(realmId);
  if (hit !== undefined && hit.version === version) return hit.users;
  const users = Object.freeze((await listUsers(db, realmId)).map((user) => Object.freeze(user)));
  if (!byRealm) kept.set(db, (byRealm = new BoundedMap(REALMS_KEPT)));
  byRealm.set(realmId, { version, users });
  return users;
}
