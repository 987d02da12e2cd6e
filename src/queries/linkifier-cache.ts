// Compiled linkifiers per realm, kept in memory: rendering and topic_links run for every message
// sent or fetched, so they must not read and compile the list each time.
import type { DbOrTx } from '../db/schema.js';
import { type CompiledLinkifier, compileLinkifiers, type LinkifierRow } from '../lib/linkifiers/match.js';
import { listLinkifiers } from './linkifiers.js';

/**
 * Changes bump the realm's generation; an entry loaded under an older one is read again. The
 * generations are shared by every store in the process (tests open many whose realm ids repeat),
 * which at worst reloads a list that had not changed.
 */
const generations = new Map<number, number>();
/**
 * Another process of a cluster says when it changed the list (a notice on the bus); a change made
 * otherwise (SQL, a process outside the cluster) is picked up within this time.
 */
const MAX_AGE_MS = 15_000;

interface Entry {
  generation: number;
  loadedAt: number;
  /** The rows the list was compiled from, to keep the compiled list (and its memos) when they have not changed. */
  rowsKey?: string;
  linkifiers: Promise<CompiledLinkifier[]>;
}

const keyOf = (rows: readonly LinkifierRow[]) => JSON.stringify(rows.map((r) => [r.id, r.pattern, r.url_template]));

/**
 * One cache per store: a Kysely instance and its transactions share one adapter object, while
 * separate stores have their own, so realm ids never collide across stores.
 */
const caches = new WeakMap<object, Map<number, Entry>>();

function cacheFor(db: DbOrTx): Map<number, Entry> {
  const key = db.getExecutor().adapter as object;
  let cache = caches.get(key);
  if (!cache) {
    cache = new Map();
    caches.set(key, cache);
  }
  return cache;
}

/** The realm's linkifiers, compiled, in the order they apply. */
export function realmLinkifiers(db: DbOrTx, realmId: number): Promise<CompiledLinkifier[]> {
  const cache = cacheFor(db);
  const generation = generations.get(realmId) ?? 0;
  const now = Date.now();
  const cached = cache.get(realmId);
  if (cached && cached.generation === generation && now - cached.loadedAt < MAX_AGE_MS) return cached.linkifiers;
  const entry: Entry = {
    generation,
    loadedAt: now,
    linkifiers: listLinkifiers(db, realmId).then(async (rows) => {
      entry.rowsKey = keyOf(rows);
      return cached && cached.rowsKey === entry.rowsKey ? cached.linkifiers : compileLinkifiers(rows);
    }),
  };
  cache.set(realmId, entry);
  // A failed read is not remembered.
  entry.linkifiers.catch(() => {
    if (cache.get(realmId) === entry) cache.delete(realmId);
  });
  return entry.linkifiers;
}

/**
 * Call inside the transaction that changes the realm's linkifiers (later reads in it see the
 * change) and again once it has committed (drops anything read meanwhile from before the change).
 */
export function invalidateRealmLinkifiers(realmId: number): void {
  generations.set(realmId, (generations.get(realmId) ?? 0) + 1);
}
