// Health checks and Prometheus metrics: /health/live and /health/ready for load balancers (ready
// fails with 503 while the database cannot be reached), and /metrics only when turned on, behind
// its token when one is set, counting requests by route pattern and reporting queues and polls.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { join } from 'node:path';
import { migrateToLatest, openStore } from '../../src/db/connect.js';
import { registerHealthRoutes } from '../../src/http/health.js';
import { setup, type TestContext } from '../support/context.js';
import { TestClock } from '../support/clock.js';
import { testDialects } from '../support/dialects.js';
import { SMALL_DISK_UNAVAILABLE, SmallDisk } from '../support/small-disk.js';

for (const dialect of testDialects()) {
  describe(`health checks [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers live and ready without credentials, never cached', async () => {
      for (const url of ['/health/live', '/health/ready']) {
        const res = await ctx.app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.deepEqual(res.json(), url === '/health/live' ? { status: 'ok' } : { status: 'ok', checks: { database: 'ok' } });
      }
    });

    it('reports the store degraded (503) while writes fail for lack of space, until a write succeeds', async () => {
      const ready = async () => {
        const res = await ctx.app.inject({ method: 'GET', url: '/health/ready' });
        return { status: res.statusCode, body: res.json() as unknown };
      };
      // What each store's driver says when its disk is full.
      const message = dialect === 'sqlite' ? 'database or disk is full' : 'could not extend file "base/16384/2619": No space left on device';
      const full = Object.assign(new Error(message), { code: dialect === 'sqlite' ? 'SQLITE_FULL' : '53100' });
      // A write that fails for another reason is no sign of a full disk.
      await assert.rejects(ctx.store.transact(async () => {
        throw Object.assign(new Error('UNIQUE constraint failed'), { code: dialect === 'sqlite' ? 'SQLITE_CONSTRAINT_UNIQUE' : '23505' });
      }));
      assert.deepEqual(await ready(), { status: 200, body: { status: 'ok', checks: { database: 'ok' } } });

      await assert.rejects(ctx.store.transact(async () => { throw full; }), full);
      assert.deepEqual(await ready(), { status: 503, body: { status: 'unavailable', checks: { database: `degraded: writes fail for lack of disk space (${message})` } } });
      // Reads still work meanwhile; the next write that succeeds clears it.
      assert.equal((await ctx.as('mark').get('/users/me')).status, 200);
      assert.equal((await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'space', content: 'room again' })).status, 200);
      assert.deepEqual(await ready(), { status: 200, body: { status: 'ok', checks: { database: 'ok' } } });
    });

    it('has no metrics route unless metrics are turned on', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(res.statusCode, 404);
    });
  });

  describe(`metrics [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect, { config: { metricsToken: 'scrape-secret' } })));
    after(() => ctx.close());

    const scrape = (authorization?: string) =>
      ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

    it('refuses a scrape without the token, or with another', async () => {
      for (const authorization of [undefined, 'Bearer wrong-secret', 'Basic c2NyYXBlLXNlY3JldA==']) {
        const res = await scrape(authorization);
        assert.equal(res.statusCode, 401, String(authorization));
        assert.deepEqual(res.json(), { result: 'error', msg: 'Not authorized to read the metrics', code: 'UNAUTHORIZED' });
      }
    });

    it('counts requests by route pattern and status, and reports queues, polls and deliveries', async () => {
      const mark = ctx.as('mark');
      await mark.get('/users/me');
      await mark.get('/messages/999999');
      const { queue_id } = (await mark.post('/register', { event_types: ['message'] })).body as { queue_id: string };
      assert.ok(queue_id);
      await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'metrics', content: 'counted' });

      const res = await scrape('Bearer scrape-secret');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      const text = res.body;
      assert.match(text, /^confab_http_requests_total\{route="\/api\/v1\/users\/me",method="GET",status="200"\} 1$/m);
      assert.match(text, /^confab_http_requests_total\{route="\/api\/v1\/messages\/:message_id",method="GET",status="400"\} 1$/m);
      assert.match(text, /^confab_http_request_duration_seconds_count\{route="\/api\/v1\/users\/me",method="GET"\} 1$/m);
      assert.match(text, /^confab_event_queues 1$/m);
      assert.match(text, /^confab_event_polls_waiting 0$/m);
      const delivered = /^confab_events_delivered_total\{type="message"\} (\d+)$/m.exec(text);
      assert.ok(delivered && Number(delivered[1]) >= 2, 'a stream message reaches at least its sender and one subscriber');
      assert.match(text, /^confab_nodejs_eventloop_lag_seconds /m);
      // The scrape itself is not counted; Redis round trips are reported only in a cluster (test/cluster/cluster-state.test.ts).
      assert.doesNotMatch(text, /route="\/metrics"/);
      assert.doesNotMatch(text, /^confab_redis_/m);
      if (dialect === 'postgres') assert.match(text, /^confab_db_pool_connections\{state="open"\} \d+$/m);
      // The embedded store's write-ahead log, as large as its file is now (the scrape writes nothing).
      if (dialect === 'sqlite') {
        assert.match(text, /^# TYPE confab_db_wal_bytes gauge$/m);
        const wal = /^confab_db_wal_bytes (\d+)$/m.exec(text);
        assert.ok(wal, 'the log size is reported');
        assert.equal(Number(wal[1]), statSync(`${ctx.store.checkpointer!.path}-wal`).size);
        assert.ok(Number(wal[1]) > 0);
      } else {
        assert.doesNotMatch(text, /^confab_db_wal_bytes/m);
      }
    });
  });
}

describe('readiness while the database cannot be reached', () => {
  it('answers 503 naming the failed check', async () => {
    // A PostgreSQL address where nothing listens: the real driver's refusal, not a stand-in.
    const store = openStore({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', connectTimeoutMs: 500 });
    const app = Fastify();
    registerHealthRoutes(app, { db: store.db, store } as never);
    try {
      const res = await app.inject({ method: 'GET', url: '/health/ready' });
      assert.equal(res.statusCode, 503);
      const body = res.json() as { status: string; checks: { database: string } };
      assert.equal(body.status, 'unavailable');
      assert.match(body.checks.database, /ECONNREFUSED/);
      assert.equal((await app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('readiness on a full disk (SQLite)', { skip: SMALL_DISK_UNAVAILABLE ?? false }, () => {
  let disk: SmallDisk;
  let ctx: TestContext;
  const clock = new TestClock();
  before(async () => {
    disk = new SmallDisk(16 * 1024);
    const store = openStore({ sqlitePath: join(disk.dir, 'confab.db'), clock });
    await migrateToLatest(store.db);
    ctx = await setup('sqlite', { store });
  });
  after(async () => {
    try {
      await ctx?.close();
    } finally {
      disk?.unmount();
    }
  });

  const ready = async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health/ready' });
    return { status: res.statusCode, body: res.json() as unknown };
  };
  const send = (content: string) => ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'disk', content }, { undocumented: true });
  const OK = { status: 200, body: { status: 'ok', checks: { database: 'ok' } } };
  const DEGRADED = { status: 503, body: { status: 'unavailable', checks: { database: 'degraded: writes fail for lack of disk space (database or disk is full)' } } };

  it('answers writes 503 DATABASE_UNAVAILABLE and readiness 503 until there is room again', async () => {
    assert.deepEqual(await ready(), OK);
    disk.fill();
    // The log's file may have a little room left in its last block: sends fail once it is used.
    let res = await send('x'.repeat(5000));
    for (let i = 0; i < 100 && res.status === 200; i++) res = await send('x'.repeat(5000));
    assert.deepEqual(
      { status: res.status, retryAfter: res.headers['retry-after'], body: res.body },
      { status: 503, retryAfter: '60', body: { result: 'error', msg: 'The database is out of space; try again later', code: 'DATABASE_UNAVAILABLE', 'retry-after': 60 } },
    );
    assert.deepEqual(await ready(), DEGRADED);
    // After a while readiness lets requests through again, to find out whether there is room now:
    // the next write that fails for lack of space says there is not.
    clock.advance(31);
    assert.deepEqual(await ready(), OK);
    assert.equal((await send('still full')).status, 503);
    assert.deepEqual(await ready(), DEGRADED);

    disk.free();
    assert.equal((await send('room again')).status, 200);
    assert.deepEqual(await ready(), OK);
  });
});
