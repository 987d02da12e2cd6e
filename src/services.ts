// What the running server holds: the store, the configuration, the clock and the event bus.
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiter } from './adapters/rate-limit/limiter.js';
import type { FileStorage } from './adapters/storage/types.js';
import type { ClusterMember } from './cluster/cluster.js';
import type { Config } from './config.js';
import type { Store } from './db/connect.js';
import type { Db } from './db/schema.js';
import type { EventBus } from './events/bus.js';
import type { QueueRegistry } from './events/registry.js';

export interface Clock {
  /** UNIX time in seconds, with fractions. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() / 1000 };

export interface Services {
  config: Config;
  store: Store;
  db: Db;
  clock: Clock;
  bus: EventBus;
  /** This process's event queues. */
  queues: QueueRegistry;
  log?: FastifyBaseLogger;
  /** Rate-limit counters; by default kept in memory from the config's rules (rateLimiterFor, src/http/rate-limit.ts). */
  rateLimiter?: RateLimiter;
  /** Where uploaded files live; by default opened from the configuration (src/adapters/storage). */
  storage?: FileStorage;
  /** This process's membership of a cluster sharing PostgreSQL and Redis (--redis-url); absent for one process. */
  cluster?: ClusterMember;
  /** Round-trip every event through JSON when it is sent, so unserializable values fail early (tests). */
  checkEvents?: boolean;
}
