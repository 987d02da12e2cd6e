// Where rate-limit counters live. One process keeps them in memory (memory.ts); several processes
// behind one balancer will share them through Redis, which is why every answer may be a promise.

/** At most `requests` requests per `seconds`. */
export interface RateLimitRule {
  requests: number;
  seconds: number;
  /**
   * Keep each counted request's time and refuse while `requests` of them fall within the last
   * `seconds`, as the reference's login limit does. Without it the count is smoothed: a burst of
   * `requests`, then one every seconds/requests, which in a window after a burst lets in twice as
   * many. Meant for small `requests`, since each key keeps that many times.
   */
  exact?: boolean;
}

export interface RateLimitOutcome {
  /** The request is refused and was not counted. */
  limited: boolean;
  /** Seconds until a refused request would be accepted (0 when accepted). */
  retryAfter: number;
  /** Requests still accepted at once after this one. */
  remaining: number;
  /** Seconds until the key's count is back to zero. */
  resetAfter: number;
}

export type Awaitable<T> = T | Promise<T>;

export interface RateLimitStore {
  /** Counts one request for `key` under `rule`, unless that would pass the limit. */
  hit(key: string, rule: RateLimitRule): Awaitable<RateLimitOutcome>;
  /** What `hit` would answer, without counting anything. */
  peek(key: string, rule: RateLimitRule): Awaitable<RateLimitOutcome>;
  /** Takes back one counted request (one that turned out not to count, such as a good login). */
  undo(key: string, rule: RateLimitRule): Awaitable<void>;
  /** Forgets everything counted for `key`. */
  clear(key: string): Awaitable<void>;
}
