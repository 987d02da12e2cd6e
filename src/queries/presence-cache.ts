// The realm's `presences` answer, kept for the rest of the current second. Every open client's
// ping asks for everyone's presence, so at 1,000 users the same answer would be rebuilt ~17 times
// a second; this process's own writes patch the kept answers after commit, other processes'
// writes too (they arrive as notices on the cluster's bus), and anything else (settings,
// deactivations) shows within a second.
//
// When the second turns, the pings arriving together would each rebuild the answer; they share
// one read of the store instead. A read that fails is not kept, so the next ping tries again.
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

/** A rebuild under way, and the writes committed while it reads (it may have read before them). */
interface Rebuild {
  second: number;
  answer: Promise<Kept>;
  writesMeanwhile: PresenceEntry[];
}

const kept = new WeakMap<DbOrTx, Map<number, Kept>>();
const rebuilding = new WeakMap<DbOrTx, Map<number, Rebuild>>();

function realmsOf<T>(byDb: WeakMap<DbOrTx, Map<number, T>>, db: DbOrTx): Map<number, T> {
  let realms = byDb.get(db);
  if (!realms) byDb.set(db, (realms = new Map()));
  return realms;
}

export async function cachedPresences(db: DbOrTx, realmId: number, slim: boolean, now: number): Promise<Presences> {
  const current = kept.get(db)?.get(realmId);
  const found = current?.second === now ? current : await rebuild(db, realmId, now);
  const form = slim ? 'slim' : 'legacy';
  return (found[form] ??= presencesDict(found.entries, slim, now));
}

function rebuild(db: DbOrTx, realmId: number, now: number): Promise<Kept> {
  const underWay = realmsOf(rebuilding, db);
  const shared = underWay.get(realmId);
  if (shared?.second === now) return shared.answer;
  const writesMeanwhile: PresenceEntry[] = [];
  const answer = realmPresence(db, realmId, now)
    .then((entries) => {
      const found: Kept = { second: now, entries };
      for (const entry of writesMeanwhile) patch(found, entry);
      realmsOf(kept, db).set(realmId, found);
      return found;
    })
    .finally(() => {
      if (underWay.get(realmId)?.answer === answer) underWay.delete(realmId);
    });
  underWay.set(realmId, { second: now, answer, writesMeanwhile });
  return answer;
}

function patch(found: Kept, entry: PresenceEntry): void {
  const index = found.entries.findIndex((e) => e.userId === entry.userId);
  if (index === -1) found.entries.push(entry);
  else found.entries[index] = entry;
  if (found.slim) found.slim[String(entry.userId)] = slimPresence(entry, entry.dateJoined);
  if (found.legacy) found.legacy[entry.email] = legacyPresence(entry, entry.dateJoined, found.second);
}

/** A committed write of this process: the kept answers of the realm, if any, follow it. */
export function notePresenceWrite(db: DbOrTx, realmId: number, entry: PresenceEntry): void {
  rebuilding.get(db)?.get(realmId)?.writesMeanwhile.push(entry);
  const found = kept.get(db)?.get(realmId);
  if (found) patch(found, entry);
}
