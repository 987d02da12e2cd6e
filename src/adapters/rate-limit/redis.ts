// Rate-limit counters in Redis, shared by every process of a cluster: the same two algorithms as
// memory.ts (the generic cell rate algorithm, and a sliding log for exact rules), each one Lua
// script so a count is read and changed in one step. Times are Redis's own clock, which every
// process shares. Each script's text is sent once per connection, then only its SHA1 (ioredis's
// defined commands, which send the text again if Redis has forgotten it): about 800 bytes less per
// check. While Redis is away requests are let through (and the failure logged): a counter outage
// must not turn into refusing every request.
import type { Redis } from 'ioredis';
import type { RateLimitOutcome, RateLimitRule, RateLimitStore } from './store.js';

const EPSILON = 1e-9;

// KEYS[1] key; ARGV: seconds, requests, record (1/0). Returns {limited, retryAfter, remaining, resetAfter} as strings.
const CELL = `
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local seconds, requests, record = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] == '1'
local step = seconds / requests
local current = math.max(tonumber(redis.call('GET', KEYS[1]) or now), now)
local nxt = current + step
if nxt - now > seconds * (1 + ${EPSILON}) then
  return {'1', tostring(nxt - seconds - now), '0', tostring(current - now)}
end
if record then redis.call('SET', KEYS[1], tostring(nxt), 'PX', math.ceil((nxt - now) * 1000) + 1) end
local after = record and nxt or current
return {'0', '0', tostring(math.max(0, math.floor((seconds - (after - now)) / step + ${EPSILON}))), tostring(after - now)}`;

// Exact rules: a sorted set of request times. KEYS[1] key; ARGV: seconds, requests, record, a unique member.
// Only the entries it needs are read, so a 200-request rule costs no more than a 5-request one.
const LOG = `
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local seconds, requests, record = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] == '1'
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - seconds)
local count = redis.call('ZCARD', KEYS[1])
if count >= requests then
  local oldest = tonumber(redis.call('ZRANGE', KEYS[1], count - requests, count - requests, 'WITHSCORES')[2])
  local newest = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
  return {'1', tostring(oldest + seconds - now), '0', tostring(newest + seconds - now)}
end
if record then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(seconds * 1000))
  count = count + 1
  return {'0', '0', tostring(requests - count), tostring(seconds)}
end
local newest = count > 0 and tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]) or nil
return {'0', '0', tostring(requests - count), newest and tostring(newest + seconds - now) or '0'}`;

const UNDO_CELL = `
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local drains = tonumber(redis.call('GET', KEYS[1]) or '0')
local nxt = drains - tonumber(ARGV[1]) / tonumber(ARGV[2])
if nxt <= now then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], tostring(nxt), 'PX', math.ceil((nxt - now) * 1000) + 1) end
return 1`;

const UNDO_LOG = `
local newest = redis.call('ZRANGE', KEYS[1], -1, -1)
if #newest > 0 then redis.call('ZREM', KEYS[1], newest[1]) end
return 1`;

const SCRIPTS = { rateLimitCell: CELL, rateLimitLog: LOG, rateLimitUndoCell: UNDO_CELL, rateLimitUndoLog: UNDO_LOG };

/** The connection with the scripts defined on it, each taking its one key then its arguments. */
type ScriptedRedis = Record<keyof typeof SCRIPTS, (key: string, ...args: string[]) => Promise<unknown>>;

const OPEN: RateLimitOutcome = { limited: false, retryAfter: 0, remaining: 1, resetAfter: 0 };

export class RedisRateLimitStore implements RateLimitStore {
  private counter = 0;
  private readonly scripts: ScriptedRedis;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void,
  ) {
    for (const [name, lua] of Object.entries(SCRIPTS)) redis.defineCommand(name, { numberOfKeys: 1, lua });
    this.scripts = redis as unknown as ScriptedRedis;
  }

  private key(key: string, rule: RateLimitRule): string {
    return `${this.prefix}ratelimit:${rule.exact ? 'log' : 'cell'}:${key}`;
  }

  private async run(key: string, rule: RateLimitRule, record: boolean): Promise<RateLimitOutcome> {
    try {
      const args = [String(rule.seconds), String(rule.requests), record ? '1' : '0'];
      const reply = rule.exact
        ? await this.scripts.rateLimitLog(this.key(key, rule), ...args, `${Date.now()}-${process.pid}-${this.counter++}`)
        : await this.scripts.rateLimitCell(this.key(key, rule), ...args);
      const [limited, retryAfter, remaining, resetAfter] = (reply as string[]).map(Number);
      return { limited: limited === 1, retryAfter: retryAfter!, remaining: remaining!, resetAfter: resetAfter! };
    } catch (error) {
      this.onError(error);
      return OPEN;
    }
  }

  hit(key: string, rule: RateLimitRule): Promise<RateLimitOutcome> {
    return this.run(key, rule, true);
  }

  peek(key: string, rule: RateLimitRule): Promise<RateLimitOutcome> {
    return this.run(key, rule, false);
  }

  async undo(key: string, rule: RateLimitRule): Promise<void> {
    const undo = rule.exact ? this.scripts.rateLimitUndoLog : this.scripts.rateLimitUndoCell;
    await undo.call(this.redis, this.key(key, rule), String(rule.seconds), String(rule.requests)).catch(this.onError);
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}ratelimit:cell:${key}`, `${this.prefix}ratelimit:log:${key}`).catch(this.onError);
  }
}
