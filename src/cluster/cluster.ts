// This process as a member of a cluster of Confab processes sharing PostgreSQL and Redis. Each
// member announces the address other members reach it at (for event polls of the queues it holds)
// under a key that expires unless renewed, so a member that dies (kill -9) drops out on its own.
// Queue ids start with the id of the member that made them; a queue handed to another member when
// its own stops is recorded as moved. Periodic jobs take a lock so they run once across members.
import { randomBytes } from 'node:crypto';
import type { Redis } from './redis.js';

/** A member's address key lives this long; members renew it three times as often. */
const MEMBER_TTL_MS = 10_000;
const RENEW_MS = 3_000;
/** A queue moved to another member is remembered this long (longer than any idle queue lives). */
const MOVED_TTL_SECONDS = 24 * 3600;
/** What a stopping member's key says while it hands its queues over. */
const STOPPING = 'stopping';
/** A hand-off's state (offered, taken, done, withdrawn) outlives any stop. */
const HANDOFF_TTL_MS = 60_000;
/** Moves a key from one state to another only if it is in the first: one of claim and withdraw wins. */
const CLAIM_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

export type MemberState = { kind: 'up'; url: string } | { kind: 'stopping' } | { kind: 'gone' };

export class ClusterMember {
  readonly id = randomBytes(6).toString('hex');
  private renewTimer: NodeJS.Timeout | null = null;
  private url = '';

  constructor(
    /** Commands that fail at once while Redis is away. */
    readonly redis: Redis,
    /** The event bus's connections, which wait for Redis to come back. */
    readonly publisher: Redis,
    readonly subscriber: Redis,
    readonly prefix: string,
  ) {}

  private memberKey(id: string): string {
    return `${this.prefix}member:${id}`;
  }

  /** Announces the address at which other members reach this one, and keeps announcing it. */
  async join(url: string): Promise<void> {
    this.url = url;
    await this.redis.set(this.memberKey(this.id), url, 'PX', MEMBER_TTL_MS);
    this.renewTimer = setInterval(() => {
      this.redis.set(this.memberKey(this.id), this.url, 'PX', MEMBER_TTL_MS).catch(() => undefined);
    }, RENEW_MS);
    this.renewTimer.unref();
  }

  /** Other members wait for this one's queues to move instead of taking it for dead. */
  async markStopping(): Promise<void> {
    this.url = STOPPING;
    await this.redis.set(this.memberKey(this.id), STOPPING, 'PX', MEMBER_TTL_MS).catch(() => undefined);
  }

  async leave(): Promise<void> {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = null;
    await this.redis.del(this.memberKey(this.id)).catch(() => undefined);
  }

  async state(memberId: string): Promise<MemberState> {
    const value = await this.redis.get(this.memberKey(memberId));
    if (value === null) return { kind: 'gone' };
    return value === STOPPING ? { kind: 'stopping' } : { kind: 'up', url: value };
  }

  /** Another member that is up (and not among `except`), to hand queues to; null when there is none. */
  async anyOtherMember(except: ReadonlySet<string> = new Set()): Promise<string | null> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}member:*`, 'COUNT', 100);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    for (const key of keys) {
      const id = key.slice(`${this.prefix}member:`.length);
      if (id !== this.id && !except.has(id) && (await this.state(id)).kind === 'up') return id;
    }
    return null;
  }

  /** A queue id that names this member. */
  newQueueId(uuid: string): string {
    return `${this.id}:${uuid}`;
  }

  /** The member holding a queue: where it moved, or the member that made it. */
  async queueHolder(queueId: string): Promise<string | null> {
    const moved = await this.redis.get(`${this.prefix}queue-moved:${queueId}`);
    if (moved) return moved;
    const colon = queueId.indexOf(':');
    return colon > 0 ? queueId.slice(0, colon) : null;
  }

  async recordMoved(queueIds: string[]): Promise<void> {
    if (queueIds.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const id of queueIds) pipeline.set(`${this.prefix}queue-moved:${id}`, this.id, 'EX', MOVED_TTL_SECONDS);
    await pipeline.exec();
  }

  private handoffKey(id: string): string {
    return `${this.prefix}handoff:${id}`;
  }

  /** A hand-off about to be sent: offered until its receiver claims it or its sender withdraws it. */
  async offerHandoff(id: string): Promise<void> {
    await this.redis.set(this.handoffKey(id), 'offered', 'PX', HANDOFF_TTL_MS);
  }

  /** The receiver's claim: true if the hand-off was still offered, and is now taken by it. */
  async claimHandoff(id: string): Promise<boolean> {
    return (await this.redis.eval(CLAIM_SCRIPT, 1, this.handoffKey(id), 'offered', 'taken', HANDOFF_TTL_MS)) === 1;
  }

  /** The receiver holds the queues now (or has saved them in the store). */
  async confirmHandoff(id: string): Promise<void> {
    await this.redis.set(this.handoffKey(id), 'done', 'PX', HANDOFF_TTL_MS);
  }

  /** The sender takes an unclaimed hand-off back: true if it did, false once the receiver has claimed it. */
  async withdrawHandoff(id: string): Promise<boolean> {
    return (await this.redis.eval(CLAIM_SCRIPT, 1, this.handoffKey(id), 'offered', 'withdrawn', HANDOFF_TTL_MS)) === 1;
  }

  async handoffState(id: string): Promise<string | null> {
    return this.redis.get(this.handoffKey(id));
  }

  /**
   * True for the one member that takes a periodic job's turn: the lock lasts a little less than
   * the job's interval, so each turn goes to whoever asks first.
   */
  async takeTurn(job: string, intervalMs: number): Promise<boolean> {
    const taken = await this.redis.set(`${this.prefix}job:${job}`, this.id, 'PX', Math.max(100, intervalMs - 50), 'NX');
    return taken === 'OK';
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.leave();
    for (const connection of [this.subscriber, this.publisher, this.redis]) connection.disconnect();
  }
}
