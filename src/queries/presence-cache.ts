// The realm's presence rows, kept for the rest of the current second. Every open client's ping
// asks for everyone's presence, so at 1,000 users the same rows would be read ~17 times a second;
// this process's own writes patch the kept copy after commit, and anything else (other processes,
// settings, deactivations) shows within a second.
import type { DbOrTx } from '../db/schema.js';
import { realmPresence, type PresenceEntry } from './presence.js';

interface Kept {
  second: number;
  entries: Map<number, PresenceEntry>;
}

const kept = new WeakMap<DbOrTx, Map<number, Kept>>();

export async function cachedRealmPresence(db: DbOrTx, realmId: number, now: number): Promise<Iterable<PresenceEntry>> {
  let realms = kept.get(db);
  if (!realms) kept.set(db, (realms = new Map()));
  const found = realms.get(realmId);
  if (found && found.second === now) return found.entries.values();
  const entries = new Map((await realmPresence(db, realmId, now)).map((e) => [e.userId, e]));
  realms.set(realmId, { second: now, entries });
  return entries.values();
}

/** A committed write of this process: the kept copy of the realm, if any, follows it. */
export function notePresenceWrite(db: DbOrTx, realmId: number, entry: PresenceEntry): void {
  const found = kept.get(db)?.get(realmId);
  if (!found) return;
  // Keep the realm's order (by user id) for a user seen for the first time.
  if (found.entries.has(entry.userId)) found.entries.set(entry.userId, entry);
  else found.entries = new Map([...found.entries.values(), entry].sort((a, b) => a.userId - b.userId).map((e) => [e.userId, e]));
}
