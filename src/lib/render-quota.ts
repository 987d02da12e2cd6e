// Each user's share of render time. A render holds the event loop until it finishes or runs out of
// its own budget (RENDER_TIME_LIMIT_MS), and a member can make every render use that budget up:
// 10,000 characters of plain Markdown can take 200 ms, and text crafted against a linkifier runs
// until stopped. Counting every render's time against the user, failed renders included, keeps
// any one member to a small share of the loop; ordinary use spends a few milliseconds a message.
import { RateLimitedError } from '../errors.js';
import { BoundedMap } from './bounded-map.js';
import { RENDER_TIME_LIMIT_MS } from './limits.js';

/** Render time a user may spend in one minute: 5% of the loop, twelve renders that hit the budget. */
export const RENDER_MS_PER_MINUTE = 12 * RENDER_TIME_LIMIT_MS;

/** Users remembered; one forgotten early only gets a fresh share. */
const MAX_USERS = 100_000;

interface Spent {
  /** Render milliseconds not yet paid back. */
  ms: number;
  /** When `ms` was last brought up to date, in milliseconds. */
  at: number;
}

/**
 * A leaky bucket per user: renders fill it with the milliseconds they took, and it drains at
 * `perMinuteMs` a minute. A user whose bucket is full renders nothing until it drains.
 */
export class RenderQuota {
  private readonly spent = new BoundedMap<number, Spent>(MAX_USERS);

  constructor(private readonly perMinuteMs = RENDER_MS_PER_MINUTE) {}

  private current(userId: number, nowMs: number): Spent {
    const entry = this.spent.get(userId) ?? { ms: 0, at: nowMs };
    const drained = Math.max(0, nowMs - entry.at) * (this.perMinuteMs / 60_000);
    return { ms: Math.max(0, entry.ms - drained), at: nowMs };
  }

  /** Throws the 429 RATE_LIMIT_HIT, with the seconds until the user may render again, when the share is used up. */
  check(userId: number, nowMs: number): void {
    const { ms } = this.current(userId, nowMs);
    if (ms < this.perMinuteMs) return;
    const waitMs = (ms - this.perMinuteMs) / (this.perMinuteMs / 60_000);
    throw new RateLimitedError(Math.max(0.001, Math.round(waitMs) / 1000));
  }

  /** Counts a render's milliseconds against the user. */
  charge(userId: number, renderMs: number, nowMs: number): void {
    const entry = this.current(userId, nowMs);
    entry.ms += renderMs;
    // Re-inserted, so the least recently active users are the ones forgotten.
    this.spent.delete(userId);
    this.spent.set(userId, entry);
  }
}
