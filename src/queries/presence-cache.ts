// The realm's `presences` answer, kept for the rest of the current second. Every open client's
// ping asks for everyone's presence, so at 1,000 users the same answer would be rebuilt ~17 times
// a second; this process's own writes patch the kept answers after commit, other processes'
// writes too (they arrive as notices on the cluster's bus), and anything else (settings,
// deactivations) shows within a second.
import type { DbOrTx } from '../db/schema.js';
import { legacyPresence, presencesDict, slimPresence } from '../lib/presence.js';
import { realmPresence, type PresenceEntry } from './presence.js';

type Presences = Record<string, unknown>;

interface Kept {
  second: number;
  entries: PresenceEntry[];
  slim?: Presences;
  legacy?: Presences;
}

const kept = new WeakMap<DbOrTx, Map<number, Kept>>();

export async function cachedPresences(db: DbOrTx, realmId: number, slim: boolean, now: number): Promise<Presences> {
  let realms = kept.get(db);
  if (!realms) kept.set(db, (realms = new Map()));
  let found = realms.get(realmId);
  if (!found || found.second !== now) {
    found = { second: now, entries: await realmPresence(db, realmId, now) };
    realms.set(realmId, found);
  }
  const form = slim ? 'slim' : 'legacy';
  return (found[form] ??= presencesDict(found.entries, slim, now));
}

/** A committed write of this process: the kept answers of the realm, if any, follow it. */
export function notePresenceWrite(db: DbOrTx, realmId: number, entry: PresenceEntry): void {
  const found = kept.get(db)?.get(realmId);
  if (!found) return;
  const index = found.entries.findIndex((e) => e.userId === entry.userId);
  if (index === -1) found.entries.push(entry);
  else found.entries[index] = entry;
  if (found.slim) found.slim[String(entry.userId)] = slimPresence(entry, entry.dateJoined);
  if (found.legacy) found.legacy[entry.email] = legacyPresence(entry, entry.dateJoined, found.second);
}
