// What the server asks of its rate limits. The HTTP layer's limiter (src/http/rate-limit.ts)
// applies the configured rules to counters in a RateLimitStore: this process's memory, or Redis
// in a cluster. Services holds a limiter by this interface, so nothing reaches HTTP code through it.
import type { Awaitable } from './store.js';

/** Which per-user count an authenticated request goes to. */
export type UserBucket = 'api' | 'events';

export type RateLimitHeaders = Record<string, string>;

export interface RateLimiter {
  /**
   * Counts one authenticated request of `userId`. Answers the X-RateLimit-* headers for the reply,
   * or throws a 429 RATE_LIMIT_HIT when the user is over the limit.
   */
  user(userId: number, bucket: UserBucket): Awaitable<RateLimitHeaders>;
  /** For polls answered before the route: whether this poll of `userId` is within the limit. */
  pollAllowed(userId: number): Awaitable<boolean>;
  /** Counts one unauthenticated request from `ip`, as `user` does. */
  unauthenticated(ip: string): Awaitable<RateLimitHeaders>;
  /** Runs an API-key authentication for a request from `ip`, refused or counted by its address's failures. */
  authenticate<T>(ip: string, attempt: () => Promise<T>): Promise<T>;
  /** Runs a password login for `username` from `ip`, counted by name and by address. */
  login<T>(ip: string, username: string, attempt: () => Promise<T>): Promise<T>;
  /** Runs a sign-up from `ip`, counted against the address's failed-authentication limit. */
  signup<T>(ip: string, attempt: () => Promise<T>): Promise<T>;
  /** Counts a request for a password-reset mail to `email` from `ip`; throws a 429 when either is over. */
  passwordReset(ip: string, email: string): Promise<void>;
}
