// The cluster's parts against a real Redis, each under a prefix of its own: the shared rate-limit
// counters, periodic jobs taking turns, hand-offs claimed or withdrawn, the bus's numbering (order,
// a gap noticed, batches kept for queues on the move), and the flags that refuse a cluster without
// PostgreSQL.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RedisRateLimitStore } from '../../src/adapters/rate-limit/redis.js';
import { ClusterMember } from '../../src/cluster/cluster.js';
import { RedisBus } from '../../src/cluster/redis-bus.js';
import { connectRedis, type Redis } from '../../src/cluster/redis.js';
import { loadConfig } from '../../src/config.js';
import type { Delivery, Notice } from '../../src/events/bus.js';
import { TEST_REDIS_URL } from '../support/cluster.js';
import { TestClock } from '../support/clock.js';
import { waitUntil } from '../support/wait.js';

describe('cluster flags', () => {
  it('refuses --redis-url without PostgreSQL, and --workers without Redis', () => {
    assert.throws(() => loadConfig({ 'redis-url': 'redis://127.0.0.1:6379' }, {}), {
      message: '--redis-url joins processes that share one database: it needs --database-url postgres://... (the embedded store belongs to one process)',
    });
    assert.throws(() => loadConfig({ workers: '2', 'database-url': 'postgres://x@127.0.0.1/db' }, {}), {
      message: '--workers runs several processes, which share events through Redis: it needs --redis-url (and --database-url)',
    });
    assert.throws(() => loadConfig({ workers: '0' }, {}), { message: "--workers needs a whole number of at least 1, got '0'" });
    const config = loadConfig({}, { CONFAB_REDIS_URL: 'redis://127.0.0.1:6379', CONFAB_DATABASE_URL: 'postgres://x@127.0.0.1/db', CONFAB_WORKERS: '3' });
    assert.deepEqual([config.redisUrl, config.workers, config.redisPrefix], ['redis://127.0.0.1:6379', 3, 'confab:']);
  });
});

describe('cluster parts on Redis', { skip: !TEST_REDIS_URL && 'needs TEST_DATABASE_URL (and Redis at TEST_REDIS_URL)' }, () => {
  const prefix = `confab-test-${randomBytes(4).toString('hex')}:`;
  const connections: Redis[] = [];
  const open = async (waitForever = false) => {
    const connection = await connectRedis(TEST_REDIS_URL!, { name: 'confab-test', waitForever });
    connections.push(connection);
    return connection;
  };
  let redis: Redis;

  before(async () => {
    redis = await open();
  });

  after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    for (const connection of connections) connection.disconnect();
  });

  it('counts requests in Redis as the memory store does: a burst, then refusals, undo and clear', async () => {
    const errors: unknown[] = [];
    const store = new RedisRateLimitStore(redis, prefix, (error) => errors.push(error));
    const rule = { requests: 3, seconds: 60 };
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await store.hit('user:1', rule));
    assert.deepEqual(outcomes.map((o) => [o.limited, o.remaining]), [[false, 2], [false, 1], [false, 0], [true, 0]]);
    assert.ok(outcomes[3]!.retryAfter > 19 && outcomes[3]!.retryAfter <= 20, String(outcomes[3]!.retryAfter));
    // Another key, and another process's store on the same Redis, count apart and together.
    const other = new RedisRateLimitStore(await open(), prefix, (error) => errors.push(error));
    assert.equal((await other.hit('user:2', rule)).limited, false);
    assert.equal((await other.peek('user:1', rule)).limited, true);
    await store.undo('user:1', rule);
    assert.equal((await other.hit('user:1', rule)).limited, false);
    assert.equal((await other.hit('user:1', rule)).limited, true);
    await store.clear('user:1');
    assert.deepEqual([(await store.peek('user:1', rule)).limited, (await store.peek('user:1', rule)).remaining], [false, 3]);

    const exact = { requests: 2, seconds: 1800, exact: true };
    assert.deepEqual((await store.hit('login:a', exact)).remaining, 1);
    assert.deepEqual((await store.hit('login:a', exact)).remaining, 0);
    const refused = await store.hit('login:a', exact);
    assert.equal(refused.limited, true);
    assert.ok(refused.retryAfter > 1799 && refused.retryAfter <= 1800);
    await store.undo('login:a', exact);
    assert.equal((await store.hit('login:a', exact)).limited, false);

    // The per-user rule: 200 a minute, the 201st refused until the first is a minute old.
    const perMinute = { requests: 200, seconds: 60, exact: true };
    const remaining = [];
    for (let i = 0; i < 200; i++) remaining.push((await store.hit('user:3', perMinute)).remaining);
    assert.deepEqual(remaining, Array.from({ length: 200 }, (_, i) => 199 - i));
    const overLimit = await store.hit('user:3', perMinute);
    assert.deepEqual([overLimit.limited, overLimit.remaining], [true, 0]);
    assert.ok(overLimit.retryAfter > 55 && overLimit.retryAfter <= 60, String(overLimit.retryAfter));
    assert.equal((await store.peek('user:3', perMinute)).limited, true);
    assert.deepEqual(errors, []);
  });

  it('sends each counting script once per connection, then only its SHA1, and again after SCRIPT FLUSH', async () => {
    const errors: unknown[] = [];
    const own = `${prefix}scripts:`;
    const watcher = await redis.monitor();
    const sent: string[] = [];
    // Commands a client sent, not those its scripts ran (MONITOR shows both, the latter from "lua").
    watcher.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua' && args.some((arg) => arg.startsWith(own))) sent.push(String(args[0]).toLowerCase());
    });
    const sentUntilNow = async () => {
      await redis.get(`${own}marker`);
      await waitUntil(() => sent.at(-1) === 'get');
      return sent.splice(0).slice(0, -1);
    };
    try {
      const store = new RedisRateLimitStore(await open(), own, (error) => errors.push(error));
      const rule = { requests: 3, seconds: 60 };
      for (let i = 0; i < 3; i++) await store.hit('user:1', rule);
      await store.undo('user:1', rule);
      assert.equal((await store.peek('user:1', rule)).remaining, 1);
      assert.deepEqual(await sentUntilNow(), ['eval', 'evalsha', 'evalsha', 'eval', 'evalsha']);

      // Redis forgets its scripts (a restart, SCRIPT FLUSH): the next call sends the script again.
      await redis.script('FLUSH');
      const afterFlush = await store.hit('user:1', rule);
      assert.deepEqual([afterFlush.limited, afterFlush.remaining], [false, 0]);
      assert.equal((await store.hit('user:1', rule)).limited, true);
      assert.deepEqual(await sentUntilNow(), ['evalsha', 'eval', 'evalsha']);
      assert.deepEqual(errors, []);
    } finally {
      watcher.disconnect();
    }
  });

  it('lets requests through, and reports it, while Redis cannot be reached', async () => {
    const errors: unknown[] = [];
    const gone = await open();
    gone.disconnect();
    const store = new RedisRateLimitStore(gone, prefix, (error) => errors.push(error));
    const outcome = await store.hit('user:9', { requests: 1, seconds: 60 });
    assert.equal(outcome.limited, false);
    assert.equal(errors.length, 1);
  });

  it('gives each turn of a periodic job to one member', async () => {
    const members = await Promise.all([0, 1, 2].map(async () => new ClusterMember(await open(), redis, redis, prefix)));
    const turns = await Promise.all(members.map((m) => m.takeTurn('sweep', 1000)));
    assert.equal(turns.filter(Boolean).length, 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal((await Promise.all(members.map((m) => m.takeTurn('sweep', 1000)))).filter(Boolean).length, 1);
  });

  it('lets either the receiver claim a hand-off or its sender withdraw it, never both', async () => {
    const [sender, receiver] = await Promise.all([0, 1].map(async () => new ClusterMember(await open(), redis, redis, prefix)));
    await sender.offerHandoff('claimed');
    assert.equal(await receiver.claimHandoff('claimed'), true);
    assert.equal(await sender.withdrawHandoff('claimed'), false);
    assert.equal(await sender.handoffState('claimed'), 'taken');
    await receiver.confirmHandoff('claimed');
    assert.equal(await sender.handoffState('claimed'), 'done');

    await sender.offerHandoff('withdrawn');
    assert.equal(await sender.withdrawHandoff('withdrawn'), true);
    assert.equal(await receiver.claimHandoff('withdrawn'), false);
    // A hand-off never offered (or long expired) is not claimed either.
    assert.equal(await receiver.claimHandoff('unknown'), false);
  });

  it('numbers batches in one order for every process, keeps them for moving queues, and notices a gap', async () => {
    const clock = new TestClock();
    const buses = await Promise.all([0, 1].map(async () => new RedisBus(await open(true), await open(true), prefix, clock, (error) => assert.fail(String(error)))));
    for (const bus of buses) await bus.start();
    const seen: Delivery[][][] = [[], []];
    buses.forEach((bus, i) => bus.subscribe((batch) => seen[i]!.push(batch)));
    const gaps = [0, 0];
    buses.forEach((bus, i) => bus.onGap(() => gaps[i]!++));
    const start = buses[0]!.seq;
    const batch = (n: number): Delivery[] => [{ event: { type: 'test', n }, users: [n] }];
    for (let n = 1; n <= 6; n++) buses[n % 2]!.publish(batch(n));
    await waitFor(() => seen.every((s) => s.length === 6));
    // Both processes hand out the batches in the same order.
    assert.deepEqual(seen[0], seen[1]);
    assert.deepEqual(buses[1]!.since(start + 4)?.map((entry) => entry.batch), seen[1]!.slice(4));
    // Notices reach every process; a message without events does not move the number of the last batch.
    const notices: Notice[][] = [[], []];
    buses.forEach((bus, i) => bus.onNotice((notice) => notices[i]!.push(notice)));
    const lastBatch = buses[1]!.seq;
    await buses[0]!.publish([], [{ kind: 'linkifiers', realmId: 7 }]);
    await waitFor(() => notices.every((n) => n.length === 1));
    assert.deepEqual(notices[1], [{ kind: 'linkifiers', realmId: 7 }]);
    assert.equal(buses[1]!.seq, lastBatch);
    assert.equal(seen[1]!.length, 6);
    // A number skipped (a message lost while the subscription was cut) is noticed.
    await redis.incr(`${prefix}events:seq`);
    buses[0]!.publish(batch(7));
    await waitFor(() => seen[1]!.length === 7);
    assert.deepEqual(gaps, [1, 1]);
    // After a minute the oldest batches are no longer kept: catching up from them is impossible.
    clock.advance(61);
    buses[0]!.publish(batch(8));
    await waitFor(() => seen[1]!.length === 8);
    assert.equal(buses[1]!.since(start), null);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
