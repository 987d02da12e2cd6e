// Realm lookups.
import { prepare } from '../db/prepared.js';
import type { DbOrTx, RealmRow } from '../db/schema.js';

export function getRealmById(db: DbOrTx, id: number): Promise<RealmRow | undefined> {
  return db.selectFrom('realm').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listRealms(db: DbOrTx): Promise<RealmRow[]> {
  return db.selectFrom('realm').selectAll().orderBy('id').execute();
}

// Every request reads this, so it is compiled once.
const firstRealms = prepare<[number], RealmRow>(1, (db, limit) => db.selectFrom('realm').selectAll().orderBy('id').limit(limit));

/**
 * The realm a request is for: the one whose URL host matches the request's Host,
 * else the only realm on the server, else none.
 */
export async function getRealmForHost(db: DbOrTx, host: string | undefined): Promise<RealmRow | undefined> {
  const realms = await firstRealms.all(db, 50);
  if (realms.length <= 1) return realms[0];
  const wanted = (host ?? '').toLowerCase();
  return (
    realms.find((realm) => safeHost(realm.url) === wanted) ??
    realms.find((realm) => realm.string_id === '') ??
    realms[0]
  );
}

function safeHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}
