// Realm lookups.
import type { DbOrTx, RealmRow } from '../db/schema.js';
import { keptList } from './kept-lists.js';

export function getRealmById(db: DbOrTx, id: number): Promise<RealmRow | undefined> {
  return db.selectFrom('realm').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listRealms(db: DbOrTx): Promise<RealmRow[]> {
  return db.selectFrom('realm').selectAll().orderBy('id').execute();
}

/** Every organization on the server, by id, kept under one counter for the realm table (organization 0). */
export function keptRealms(db: DbOrTx): Promise<readonly RealmRow[]> {
  return keptList(db, 'realm', 0, () => listRealms(db));
}

/** Each kept realm list's organizations by URL host, made once per list. */
const byHostOf = new WeakMap<readonly RealmRow[], Map<string, RealmRow>>();

function realmsByHost(realms: readonly RealmRow[]): Map<string, RealmRow> {
  let byHost = byHostOf.get(realms);
  if (!byHost) {
    byHost = new Map();
    // The first organization with a host keeps it, as a search in id order would find.
    for (const realm of realms) {
      const host = safeHost(realm.url);
      if (!byHost.has(host)) byHost.set(host, realm);
    }
    byHostOf.set(realms, byHost);
  }
  return byHost;
}

/**
 * The realm a request is for: the one whose URL host matches the request's Host,
 * else the only realm on the server, else none.
 */
export async function getRealmForHost(db: DbOrTx, host: string | undefined): Promise<RealmRow | undefined> {
  const realms = await keptRealms(db);
  if (realms.length <= 1) return realms[0];
  const wanted = (host ?? '').toLowerCase();
  return (wanted !== '' ? realmsByHost(realms).get(wanted) : undefined) ?? realms.find((realm) => realm.string_id === '') ?? realms[0];
}

function safeHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}
