// Realm lookups.
import type { DbOrTx, RealmRow } from '../db/schema.js';

export function getRealmById(db: DbOrTx, id: number): Promise<RealmRow | undefined> {
  return db.selectFrom('realm').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listRealms(db: DbOrTx): Promise<RealmRow[]> {
  return db.selectFrom('realm').selectAll().orderBy('id').execute();
}

/**
 * The realm a request is for: the one whose URL host matches the request's Host,
 * else the only realm on the server, else none.
 */
export async function getRealmForHost(db: DbOrTx, host: string | undefined): Promise<RealmRow | undefined> {
  const realms = await db.selectFrom('realm').selectAll().orderBy('id').limit(50).execute();
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
