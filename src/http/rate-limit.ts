// The server's rate limits, as the reference server sets them: API requests per authenticated
// user (event polls counted apart, as the reference's long-poll server keeps its own buckets),
// unauthenticated requests per client address, password logins per username, and failed
// authentications (and sign-ups) per client address. Counters live behind RateLimitStore (src/adapters/rate-limit).
// Every rule counts exactly, as the reference's Redis limiter does: the 201st request within a
// minute is refused however the 200 were spread. Event polls alone are smoothed, as its long-poll
// server's in-memory limiter smooths them.
import type { RateLimitHeaders, RateLimiter, UserBucket } from '../adapters/rate-limit/limiter.js';
import { MemoryRateLimitStore } from '../adapters/rate-limit/memory.js';
import type { Awaitable, RateLimitOutcome, RateLimitRule, RateLimitStore } from '../adapters/rate-limit/store.js';
import { type Config, rateLimitRule } from '../config.js';
import { RateLimitedError } from '../errors.js';
import type { Clock, Services } from '../services.js';

export type { RateLimitHeaders, RateLimiter, UserBucket } from '../adapters/rate-limit/limiter.js';

const NO_HEADERS: RateLimitHeaders = Object.freeze({}) as RateLimitHeaders;

export interface RateLimitRules {
  user: RateLimitRule | null;
  /** The user's event polls: the same numbers as `user`, smoothed. */
  events: RateLimitRule | null;
  ip: RateLimitRule | null;
  login: RateLimitRule | null;
  authIp: RateLimitRule | null;
  /** Password-reset mails asked for one address (the reference's password_reset_form_by_email). */
  resetEmail: RateLimitRule[];
  /** Requests from one address that send mail (the reference's sends_email_by_ip). */
  sendsEmailIp: RateLimitRule[];
}

/** The reference's numbers: two reset mails an hour and five a day per address; five mails a day per client. */
const RESET_EMAIL_RULES: RateLimitRule[] = [
  { requests: 2, seconds: 3600, exact: true },
  { requests: 5, seconds: 86_400, exact: true },
];
const SENDS_EMAIL_IP_RULES: RateLimitRule[] = [{ requests: 5, seconds: 86_400, exact: true }];

export function rulesFromConfig(config: Config): RateLimitRules {
  if (!config.rateLimits) return { user: null, events: null, ip: null, login: null, authIp: null, resetEmail: [], sendsEmailIp: [] };
  return {
    user: exactly(rateLimitRule(config.rateLimitUser)),
    events: rateLimitRule(config.rateLimitUser),
    ip: exactly(rateLimitRule(config.rateLimitIp)),
    login: exactly(rateLimitRule(config.rateLimitLogin)),
    authIp: exactly(rateLimitRule(config.rateLimitAuthIp)),
    resetEmail: RESET_EMAIL_RULES,
    sendsEmailIp: SENDS_EMAIL_IP_RULES,
  };
}

/** Refused until the oldest of the rule's count of requests is a window old, as the reference refuses. */
function exactly(rule: RateLimitRule | null): RateLimitRule | null {
  return rule && { ...rule, exact: true };
}

function then<T, R>(value: Awaitable<T>, next: (value: T) => R): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The reference server's rules, counted in a RateLimitStore (memory for one process, Redis for a cluster). */
export class RuleRateLimiter implements RateLimiter {
  constructor(
    private readonly rules: RateLimitRules,
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one authenticated request of `userId`. Answers the X-RateLimit-* headers for the reply,
   * or throws a 429 RATE_LIMIT_HIT when the user is over the limit.
   */
  user(userId: number, bucket: UserBucket): Awaitable<RateLimitHeaders> {
    const rule = bucket === 'events' ? this.rules.events : this.rules.user;
    if (!rule) return NO_HEADERS;
    return then(this.store.hit(`${bucket}:${userId}`, rule), (outcome) => this.headersOrThrow(rule, outcome));
  }

  /** For polls answered before the route: whether this poll of `userId` is within the limit. */
  pollAllowed(userId: number): Awaitable<boolean> {
    const rule = this.rules.events;
    if (!rule) return true;
    return then(this.store.hit(`events:${userId}`, rule), (outcome) => !outcome.limited);
  }

  /** Counts one unauthenticated request from `ip`, as `user` does. */
  unauthenticated(ip: string): Awaitable<RateLimitHeaders> {
    const rule = this.rules.ip;
    if (!rule) return NO_HEADERS;
    return then(this.store.hit(`ip:${ip}`, rule), (outcome) => this.headersOrThrow(rule, outcome));
  }

  /**
   * Runs an API-key authentication for a request from `ip`: refused with a 429 at once while the
   * address is over its failure limit, and counted against it when it fails.
   */
  async authenticate<T>(ip: string, attempt: () => Promise<T>): Promise<T> {
    const rule = this.rules.authIp;
    if (!rule) return attempt();
    const key = `auth-ip:${ip}`;
    const before = await this.store.peek(key, rule);
    if (before.limited) throw new RateLimitedError(before.retryAfter);
    try {
      return await attempt();
    } catch (error) {
      await this.store.hit(key, rule);
      throw error;
    }
  }

  /**
   * Runs a password login for `username` from `ip`. Both counts are taken before the password is
   * checked, so concurrent guesses cannot all slip in under the limit; a successful login clears
   * the username's count and gives back its address's.
   */
  async login<T>(ip: string, username: string, attempt: () => Promise<T>): Promise<T> {
    const { login, authIp } = this.rules;
    const userKey = `login:${username.toLowerCase()}`;
    const ipKey = `auth-ip:${ip}`;
    if (authIp) {
      const outcome = await this.store.hit(ipKey, authIp);
      if (outcome.limited) throw new RateLimitedError(outcome.retryAfter);
    }
    if (login) {
      const outcome = await this.store.hit(userKey, login);
      if (outcome.limited) {
        if (authIp) await this.store.undo(ipKey, authIp);
        throw new RateLimitedError(outcome.retryAfter);
      }
    }
    const result = await attempt();
    if (login) await this.store.clear(userKey);
    if (authIp) await this.store.undo(ipKey, authIp);
    return result;
  }

  /**
   * Runs a sign-up from `ip`. Every attempt counts against the address's failed-authentication
   * limit, successful or not, so one address cannot make accounts (or try forms) without end.
   */
  async signup<T>(ip: string, attempt: () => Promise<T>): Promise<T> {
    const rule = this.rules.authIp;
    if (rule) {
      const outcome = await this.store.hit(`auth-ip:${ip}`, rule);
      if (outcome.limited) throw new RateLimitedError(outcome.retryAfter);
    }
    return attempt();
  }

  /**
   * Counts one request to mail a password-reset link to `email` from `ip`, whether or not the
   * address has an account (so the limit tells nothing about it); a 429 once either is over.
   */
  async passwordReset(ip: string, email: string): Promise<void> {
    const counts: [string, RateLimitRule][] = [
      ...this.rules.resetEmail.map((rule, i): [string, RateLimitRule] => [`reset-email:${i}:${email.toLowerCase()}`, rule]),
      ...this.rules.sendsEmailIp.map((rule, i): [string, RateLimitRule] => [`sends-email-ip:${i}:${ip}`, rule]),
    ];
    const counted: [string, RateLimitRule][] = [];
    for (const [key, rule] of counts) {
      const outcome = await this.store.hit(key, rule);
      if (outcome.limited) {
        // A refused request takes back what it counted under the other rules.
        for (const [doneKey, doneRule] of counted) await this.store.undo(doneKey, doneRule);
        throw new RateLimitedError(outcome.retryAfter);
      }
      counted.push([key, rule]);
    }
  }

  private headersOrThrow(rule: RateLimitRule, outcome: RateLimitOutcome): RateLimitHeaders {
    const now = this.clock.now();
    if (outcome.limited) {
      throw new RateLimitedError(outcome.retryAfter, {
        'X-RateLimit-Limit': String(rule.requests),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(Math.floor(now + outcome.retryAfter)),
      });
    }
    return {
      'X-RateLimit-Limit': String(rule.requests),
      'X-RateLimit-Remaining': String(outcome.remaining),
      'X-RateLimit-Reset': String(Math.floor(now + outcome.resetAfter)),
    };
  }
}

const limiters = new WeakMap<Services, RateLimiter>();

/** The limiter of a running server: `services.rateLimiter` if given, else one in memory from its config. */
export function rateLimiterFor(services: Services): RateLimiter {
  if (services.rateLimiter) return services.rateLimiter;
  let limiter = limiters.get(services);
  if (!limiter) {
    limiter = new RuleRateLimiter(rulesFromConfig(services.config), new MemoryRateLimitStore(services.clock), services.clock);
    limiters.set(services, limiter);
  }
  return limiter;
}

/** Fastify's trustProxy option: only the named proxies' X-Forwarded-For counts; otherwise the socket's address. */
export function trustProxyOption(config: Config): string[] | false {
  const proxies = (config.trustedProxies ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  return proxies.length > 0 ? proxies : false;
}
