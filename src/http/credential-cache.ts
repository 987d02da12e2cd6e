// Whose API credentials a request carries, remembered between requests: a client sends the same
// Authorization header all day, and checking it against the store costs more than the rest of a
// poll or a small read. The user and organization rows are kept, only for credentials that passed
// the full check, and only while nothing that could change them has changed since: the store's
// counters for the organization's user rows and for the organizations themselves (realm_version,
// moved by triggers on every write whoever makes it: this server, another one, the command line
// rotating a key) must still stand where they stood before the check. A key rotation, a
// deactivation or an email change is seen by the very next request.
//
// The counters are read once per turn of the event loop, not once per request: with a thousand
// clients polling, the polls that arrive together share one read. On SQLite the read happens at
// once (a poll needs no promise) and serves the requests of the same turn for as long as this
// process sends the store no write; a change from another process (the command line) is seen from
// the next turn. Elsewhere the requests of a turn wait for one read that begins after all of them
// arrived, so it sees everything committed before any of them.
import type { Store } from '../db/connect.js';
import { prepare } from '../db/prepared.js';
import type { RealmRow, UserRow } from '../db/schema.js';
import { getRealmForHost } from '../queries/realms.js';

/** Far more than a process holds clients; past it the cache starts over. */
const MAX_ENTRIES = 100_000;

/** The counters as they stood, for one organization. */
export interface Stamp {
  realmId: number;
  /** The user rows' counter and the organizations' counter, together. */
  versions: string;
}

/** Who passed the full check: the rows as they were read, never handed out themselves. */
export interface Checked {
  user: UserRow;
  realm: RealmRow;
}

interface Entry {
  checked: Checked;
  stamp: Stamp;
}

// Both counters in one read; the organizations' is kept under organization 0.
const counters = prepare<[number], { realm_id: number; version: number }>(1, (db, realmId) =>
  db
    .selectFrom('realm_version')
    .select(['realm_id', 'version'])
    .where((eb) =>
      eb.or([
        eb.and([eb('realm_id', '=', realmId), eb('kind', '=', 'user_profile')]),
        eb.and([eb('realm_id', '=', 0), eb('kind', '=', 'realm')]),
      ]),
    ),
);

/** What a lookup found: the user and organization, or (when known) the counters as they stand now. */
export type Lookup = { found: Checked } | { stamp: Stamp | null };

function stampFrom(realmId: number, rows: ReadonlyArray<{ realm_id: number; version: number }>): Stamp {
  let users = 0;
  let realms = 0;
  for (const row of rows) {
    if (row.realm_id === 0) realms = row.version;
    else users = row.version;
  }
  return { realmId, versions: `${users}:${realms}` };
}

interface KeptStamp {
  stamp: Stamp;
  turn: number;
  localWrites: number;
}

export class CredentialCache {
  /** By host, then by Authorization header (two lookups cost less than building one key). */
  private readonly byHost = new Map<string | undefined, Map<string, Entry>>();
  private size = 0;
  /** SQLite: the counters read this turn, by organization. */
  private readonly kept = new Map<number, KeptStamp>();
  private turn = 0;
  private turnEnding = false;
  /** Elsewhere: the read each organization's requests of this turn wait for. */
  private readonly pending = new Map<number, Promise<Stamp>>();

  constructor(private readonly store: Store) {}

  /**
   * The rows remembered for these credentials if nothing has changed since they were checked (a
   * copy of the user row each time, so a request that changes its copy changes no other). Otherwise the counters as they stand now, when they are known already, to remember a new
   * check under.
   */
  lookup(authorization: string, host: string | undefined): Lookup | Promise<Lookup> {
    const entries = this.byHost.get(host);
    const entry = entries?.get(authorization);
    if (entry === undefined) return { stamp: null };
    const stamp = this.stampOf(entry.stamp.realmId);
    if (stamp instanceof Promise) return stamp.then((now) => this.compare(authorization, host, entry, now));
    return this.compare(authorization, host, entry, stamp);
  }

  private compare(authorization: string, host: string | undefined, entry: Entry, stamp: Stamp): Lookup {
    if (stamp.versions === entry.stamp.versions) return { found: { user: { ...entry.checked.user }, realm: entry.checked.realm } };
    // The entry may have been replaced, or the cache cleared, while the counters were read.
    const entries = this.byHost.get(host);
    if (entries?.get(authorization) === entry) {
      entries.delete(authorization);
      this.size--;
    }
    return { stamp };
  }

  /** The counters of the organization at `host` now: read them before checking credentials. */
  async stampFor(host: string | undefined): Promise<Stamp | null> {
    const realm = await getRealmForHost(this.store.db, host);
    return realm ? this.stampOf(realm.id) : null;
  }

  /** `stamp` must have been read before the check that found `checked`. */
  remember(authorization: string, host: string | undefined, checked: Checked, stamp: Stamp): void {
    if (stamp.realmId !== checked.realm.id) return;
    if (this.size >= MAX_ENTRIES) this.clear();
    let entries = this.byHost.get(host);
    if (!entries) this.byHost.set(host, (entries = new Map()));
    if (!entries.has(authorization)) this.size++;
    entries.set(authorization, { checked: { user: { ...checked.user }, realm: checked.realm }, stamp });
  }

  private stampOf(realmId: number): Stamp | Promise<Stamp> {
    const { store } = this;
    if (store.readNow && store.localWrites) {
      const localWrites = store.localWrites();
      const kept = this.kept.get(realmId);
      if (kept && kept.turn === this.turn && kept.localWrites === localWrites) return kept.stamp;
      try {
        const stamp = stampFrom(realmId, store.readNow(counters.bind(store.db, realmId)));
        this.kept.set(realmId, { stamp, turn: this.turn, localWrites });
        this.endTurnSoon();
        return stamp;
      } catch {
        // The connection is busy: wait for a turn like any other query.
      }
    }
    let read = this.pending.get(realmId);
    if (!read) {
      // Begins once this turn's requests have all arrived (setImmediate runs after the I/O callbacks).
      read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.pending.delete(realmId);
        return counters.all(store.db, realmId);
      }).then((rows) => stampFrom(realmId, rows));
      this.pending.set(realmId, read);
    }
    return read;
  }

  /** Counters kept this turn are read again in the next one. */
  private endTurnSoon(): void {
    if (this.turnEnding) return;
    this.turnEnding = true;
    setImmediate(() => {
      this.turn++;
      this.turnEnding = false;
    });
  }

  private clear(): void {
    this.byHost.clear();
    this.size = 0;
  }
}
