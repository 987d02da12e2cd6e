// Rate-limit counters in this process's memory. Each key holds one number, the time at which its
// count drains back to zero (the generic cell rate algorithm, as the reference server's in-memory
// limiter works): every request adds seconds/requests to it, and a request that would push it
// more than `seconds` past now is refused. A burst of `requests` passes at once; after that one
// request is accepted every seconds/requests. Keys whose count has drained are dropped on a sweep,
// and past MAX_KEYS the least recently used go first, so memory stays bounded. Exact rules keep
// the times of their last `requests` counted requests instead (a sliding log).
import type { Clock } from '../../services.js';
import type { RateLimitOutcome, RateLimitRule, RateLimitStore } from './store.js';

/** Far more keys than one process sees in a sweep interval; each costs well under 200 bytes. */
const DEFAULT_MAX_KEYS = 200_000;
const SWEEP_EVERY_SECONDS = 60;
/** Slack for float sums: 200 steps of 60/200 s must still fit in 60 s. */
const EPSILON = 1e-9;

export class MemoryRateLimitStore implements RateLimitStore {
  /** Key -> the time its count drains to zero. Insertion order is recency of use. */
  private readonly drainsAt = new Map<string, number>();
  /** Key -> the times of its counted requests within its rule's window, oldest first, for exact rules. */
  private readonly logs = new Map<string, { times: number[]; seconds: number }>();
  private lastSweep: number;

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    this.lastSweep = clock.now();
  }

  get size(): number {
    return this.drainsAt.size + this.logs.size;
  }

  hit(key: string, rule: RateLimitRule): RateLimitOutcome {
    return rule.exact ? this.countExact(key, rule, true) : this.count(key, rule, true);
  }

  peek(key: string, rule: RateLimitRule): RateLimitOutcome {
    return rule.exact ? this.countExact(key, rule, false) : this.count(key, rule, false);
  }

  undo(key: string, rule: RateLimitRule): void {
    if (rule.exact) {
      const log = this.logs.get(key);
      log?.times.pop();
      if (log?.times.length === 0) this.logs.delete(key);
      return;
    }
    const drainsAt = this.drainsAt.get(key);
    if (drainsAt === undefined) return;
    const next = drainsAt - rule.seconds / rule.requests;
    if (next <= this.clock.now()) this.drainsAt.delete(key);
    else this.drainsAt.set(key, next);
  }

  clear(key: string): void {
    this.drainsAt.delete(key);
    this.logs.delete(key);
  }

  private countExact(key: string, rule: RateLimitRule, record: boolean): RateLimitOutcome {
    const now = this.clock.now();
    if (record) this.sweep(now);
    // Times are kept oldest first, so those out of the window are a prefix.
    const times = this.logs.get(key)?.times ?? [];
    const expired = times.findIndex((t) => t > now - rule.seconds);
    times.splice(0, expired < 0 ? times.length : expired);
    if (times.length >= rule.requests) {
      const oldest = times[times.length - rule.requests]!;
      return { limited: true, retryAfter: oldest + rule.seconds - now, remaining: 0, resetAfter: times.at(-1)! + rule.seconds - now };
    }
    if (record) {
      times.push(now);
      this.logs.delete(key);
      this.logs.set(key, { times, seconds: rule.seconds });
    }
    const newest = times.at(-1);
    return {
      limited: false,
      retryAfter: 0,
      remaining: rule.requests - times.length,
      resetAfter: newest === undefined ? 0 : newest + rule.seconds - now,
    };
  }

  private count(key: string, rule: RateLimitRule, record: boolean): RateLimitOutcome {
    const now = this.clock.now();
    if (record) this.sweep(now);
    const step = rule.seconds / rule.requests;
    const current = Math.max(this.drainsAt.get(key) ?? now, now);
    const next = current + step;
    if (next - now > rule.seconds * (1 + EPSILON)) {
      return { limited: true, retryAfter: next - rule.seconds - now, remaining: 0, resetAfter: current - now };
    }
    if (record) {
      // Deleting first moves the key to the end: the map's order is least recently used first.
      this.drainsAt.delete(key);
      this.drainsAt.set(key, next);
    }
    const after = record ? next : current;
    return {
      limited: false,
      retryAfter: 0,
      remaining: Math.max(0, Math.floor((rule.seconds - (after - now)) / step + EPSILON)),
      resetAfter: after - now,
    };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep >= SWEEP_EVERY_SECONDS) {
      this.lastSweep = now;
      for (const [key, drainsAt] of this.drainsAt) if (drainsAt <= now) this.drainsAt.delete(key);
      for (const [key, log] of this.logs) if ((log.times.at(-1) ?? -Infinity) + log.seconds <= now) this.logs.delete(key);
    }
    // Still full of live keys: the least recently used make room.
    for (const map of [this.drainsAt, this.logs]) {
      for (const key of map.keys()) {
        if (this.size < this.maxKeys) break;
        map.delete(key);
      }
    }
  }
}
