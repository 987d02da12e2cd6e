// Rows that are read far more often than they change: an organization's users and streams, for
// the lists POST /register and the list endpoints return (reading and decoding a thousand user
// rows costs more than the rest of a register), and the organizations themselves, which every
// request looks up (keptRealms in realms.ts). Each list is kept until the store's counter for its
// table moves (realm_version, kept by triggers), which costs one indexed read per use.
import { prepare } from '../db/prepared.js';
import type { DbOrTx, StreamRow, UserRow } from '../db/schema.js';
import { BoundedMap } from '../lib/bounded-map.js';
import { listActiveStreams } from './streams.js';
import { listUsers } from './users.js';

export type CountedTable = 'user_profile' | 'stream' | 'realm';

interface Kept {
  version: number;
  rows: readonly object[];
}

/** Per store (tests run many side by side, with the same ids), then per table and organization. */
const kept = new WeakMap<DbOrTx, BoundedMap<string, Kept>>();
/** Lists one process keeps at a time: two per organization, and the organizations. */
const LISTS_KEPT = 128;

// Every request reads a counter (the organizations'), so the query is compiled once.
const counter = prepare<[number, CountedTable], { version: number }>(2, (db, realmId, table) =>
  db.selectFrom('realm_version').select('version').where('realm_id', '=', realmId).where('kind', '=', table),
);

export async function realmVersion(db: DbOrTx, table: CountedTable, realmId: number): Promise<number> {
  return (await counter.first(db, realmId, table))?.version ?? 0;
}

/**
 * The rows are shared and frozen. The counter is read before the rows, so a list is at least as
 * new as the counter it is kept under.
 */
export async function keptList<T extends object>(db: DbOrTx, table: CountedTable, realmId: number, load: () => Promise<T[]>): Promise<readonly T[]> {
  const version = await realmVersion(db, table, realmId);
  const key = `${table}:${realmId}`;
  let lists = kept.get(db);
  const hit = lists?.get(key);
  if (hit !== undefined && hit.version === version) return hit.rows as readonly T[];
  const rows = Object.freeze((await load()).map((row) => Object.freeze(row)));
  if (!lists) kept.set(db, (lists = new BoundedMap(LISTS_KEPT)));
  lists.set(key, { version, rows });
  return rows;
}

/** The organization's users by id, active or not. */
export function realmUsers(db: DbOrTx, realmId: number): Promise<readonly UserRow[]> {
  return keptList(db, 'user_profile', realmId, () => listUsers(db, realmId));
}

/** The organization's streams that are not deactivated, by id. */
export function realmActiveStreams(db: DbOrTx, realmId: number): Promise<readonly StreamRow[]> {
  return keptList(db, 'stream', realmId, () => listActiveStreams(db, realmId));
}
