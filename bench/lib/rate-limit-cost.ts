// What a rate-limit check costs Redis in a cluster: the bench runs its processes with rate limits
// off (one bench user sends hundreds of messages a second), so the counters' own cost is measured
// apart, through the store the server uses (src/adapters/rate-limit/redis.ts): `hits` checks of
// the per-user rule spread over `users` keys, `concurrency` at a time, on the bench's Redis.
import type { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../src/adapters/rate-limit/redis.js';
import { defaultConfig } from '../../src/config.js';
import { rulesFromConfig } from '../../src/http/rate-limit.js';
import { pool } from './fanout.js';
import { redisCounters, redisDelta, type RedisCounters } from './work-meter.js';

export interface RateLimitCost {
  hits: number;
  /** Per check: Redis CPU ms, commands, bytes each way. */
  perHit: { cpuMs: number; commands: number; bytesIn: number; bytesOut: number };
  delta: RedisCounters;
}

export async function measureRateLimitCost(redis: Redis, prefix: string, options = { hits: 20_000, users: 1000, concurrency: 100 }): Promise<RateLimitCost> {
  const rule = rulesFromConfig(defaultConfig).user!;
  const store = new RedisRateLimitStore(redis, `${prefix}bench-rate-limit:`, (error) => {
    throw error;
  });
  const before = redisCounters(await redis.info());
  await pool(Array.from({ length: options.hits }, (_, i) => i), options.concurrency, (i) => store.hit(`api:${i % options.users}`, rule));
  const delta = redisDelta(before, redisCounters(await redis.info()));
  await pool(Array.from({ length: options.users }, (_, user) => user), options.concurrency, (user) => store.clear(`api:${user}`));
  const per = (n: number) => n / options.hits;
  return { hits: options.hits, perHit: { cpuMs: per(delta.cpuMs), commands: per(delta.commands), bytesIn: per(delta.bytesIn), bytesOut: per(delta.bytesOut) }, delta };
}
