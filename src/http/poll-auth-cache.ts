// Which user a poll's credentials belong to, remembered for a short while: a client polls with
// the same Authorization header all day, and checking it against the store costs more than the
// rest of the poll. Only the user id is kept (a poll needs nothing else), and only for credentials
// that passed the full check. A change to a user forgets that user's credentials and a change to
// an organization forgets all, so a deactivation or an email change takes effect at once; changes
// made outside this server's event stream (the command line rotating a key) take effect within
// MAX_AGE_SECONDS.
import type { EventBus } from '../events/bus.js';
import type { Clock } from '../services.js';

const MAX_AGE_SECONDS = 15;
/** Far more than a process holds clients; past it the cache starts over. */
const MAX_ENTRIES = 100_000;
/** Events that may change whether credentials are valid, or whose they are. */
const INVALIDATING = new Set(['realm_user', 'realm', 'realm_bot']);

interface Entry {
  userId: number;
  checkedAt: number;
}

export class PollAuthCache {
  /** By host, then by Authorization header (two lookups cost less than building one key). */
  private readonly byHost = new Map<string | undefined, Map<string, Entry>>();
  private size = 0;

  constructor(
    private readonly clock: Clock,
    bus: EventBus,
  ) {
    bus.subscribe((batch) => {
      for (const { event } of batch) {
        if (!INVALIDATING.has(event.type as string)) continue;
        // A change to one person forgets only their credentials; anything else forgets everyone's.
        const person = (event.person ?? event.bot) as { user_id?: number } | undefined;
        if (event.type !== 'realm' && typeof person?.user_id === 'number') this.forgetUser(person.user_id);
        else this.clear();
      }
    });
  }

  userIdFor(authorization: string, host: string | undefined): number | undefined {
    const entries = this.byHost.get(host);
    const entry = entries?.get(authorization);
    if (entry === undefined) return undefined;
    if (this.clock.now() - entry.checkedAt <= MAX_AGE_SECONDS) return entry.userId;
    entries!.delete(authorization);
    this.size--;
    return undefined;
  }

  remember(authorization: string, host: string | undefined, userId: number): void {
    if (this.size >= MAX_ENTRIES) this.clear();
    let entries = this.byHost.get(host);
    if (!entries) this.byHost.set(host, (entries = new Map()));
    if (!entries.has(authorization)) this.size++;
    entries.set(authorization, { userId, checkedAt: this.clock.now() });
  }

  private forgetUser(userId: number): void {
    for (const entries of this.byHost.values()) {
      for (const [authorization, entry] of entries) {
        if (entry.userId !== userId) continue;
        entries.delete(authorization);
        this.size--;
      }
    }
  }

  private clear(): void {
    this.byHost.clear();
    this.size = 0;
  }
}
