// PostgreSQL going away under a running Confab: a restart ends the server's connections (done here
// with pg_terminate_backend from an admin connection, as a restart would, without restarting the
// shared cluster), and an outage refuses new ones (done with a TCP proxy the test closes and opens
// again). Confab keeps running, answers 503 while the database is away, and recovers by itself.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openStore, type Store } from '../../src/db/connect.js';
import { classifyStoreError } from '../../src/db/store-errors.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { TcpProxy as Proxy } from '../support/tcp-proxy.js';
import { waitUntil } from '../support/wait.js';

const url = process.env.TEST_DATABASE_URL;

const UNAVAILABLE = { result: 'error', msg: 'The database is unavailable; try again later', code: 'DATABASE_UNAVAILABLE', 'retry-after': 5 };

describe('PostgreSQL restarts and outages', { skip: !url && 'needs TEST_DATABASE_URL' }, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const application = `confab-outage-${schema}`;
  let admin: pg.Client;
  let proxy: Proxy;
  let store: Store;
  let ctx: TestContext;
  const connectionErrors: Error[] = [];

  before(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Schemas are made, migrated and dropped under the lock the other test files take (support/dialects.ts).
    await admin.query('SELECT pg_advisory_lock(72211)');
    await admin.query(`CREATE SCHEMA ${schema}`);
    const target = new URL(url!);
    proxy = new Proxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    const via = new URL(url!);
    via.hostname = '127.0.0.1';
    via.port = String(proxy.port);
    via.searchParams.set('application_name', application);
    store = openStore({
      databaseUrl: via.toString(),
      pgSchema: schema,
      poolSize: 4,
      onConnectionError: (error) => void connectionErrors.push(error),
    });
    await migrateToLatest(store.db, schema);
    await admin.query('SELECT pg_advisory_unlock(72211)');
    ctx = await setup('postgres', { store });
  });

  after(async () => {
    await ctx?.close();
    await proxy?.close();
    await admin.query('SELECT pg_advisory_lock(72211)');
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  /** Ends every connection Confab holds, as a restart of the database server does. */
  async function terminateBackends(): Promise<number> {
    const { rows } = await admin.query(
      'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1',
      [application],
    );
    return rows[0].n as number;
  }

  it('keeps running when the server ends its pooled connections, idle or in use', async () => {
    expectSuccess(await ctx.as('mona').get('/users/me'));
    const failed = store.transact(async (tx) => {
      await sql`SELECT 1`.execute(tx);
      // The transaction holds its connection while the server ends it.
      const before = connectionErrors.length;
      assert.ok((await terminateBackends()) >= 1);
      await waitUntil(() => connectionErrors.length > before);
      await sql`SELECT 1`.execute(tx);
    });
    const error = await failed.then(() => null, (e: unknown) => e);
    assert.equal(classifyStoreError(error), 'unavailable', String(error));
    // The pool drops the dead connections and opens new ones.
    expectSuccess(await ctx.as('mona').get('/users/me'));
    expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'after', content: 'still here' }));
  });

  it('answers 503 with Retry-After while the database is away, and recovers when it returns', async () => {
    expectSuccess(await ctx.as('mona').get('/users/me'));
    await proxy.close();
    for (const call of [
      () => ctx.as('mona').get('/users/me', {}, { undocumented: true }),
      () => ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'away', content: 'lost?' }, { undocumented: true }),
    ]) {
      const res = await call();
      assert.deepEqual({ status: res.status, retryAfter: res.headers['retry-after'], body: res.body }, { status: 503, retryAfter: '5', body: UNAVAILABLE });
    }
    await proxy.open();
    expectSuccess(await ctx.as('mona').get('/users/me'));
    const sent = expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'back', content: 'back again' }));
    assert.equal(typeof sent.id, 'number');
  });
});
