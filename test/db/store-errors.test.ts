// Store failures that are outages (503 with Retry-After) rather than bugs (500).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { SqliteThread } from '../../src/db/sqlite-thread.js';
import { classifyStoreError } from '../../src/db/store-errors.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';

describe('classifyStoreError', () => {
  const cases: Array<[string, unknown, ReturnType<typeof classifyStoreError>]> = [
    ['SQLite disk full', { code: 'SQLITE_FULL', message: 'database or disk is full' }, 'full'],
    ['SQLite I/O error', { code: 'SQLITE_IOERR', message: 'disk I/O error' }, 'unavailable'],
    ['SQLite extended I/O error', { code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' }, 'unavailable'],
    // Growing the log's shared-memory index fails when its disk is full.
    ['SQLite shared memory cannot grow', { code: 'SQLITE_IOERR_SHMSIZE', message: 'disk I/O error' }, 'full'],
    ['SQLite file gone', { code: 'SQLITE_CANTOPEN', message: 'unable to open database file' }, 'unavailable'],
    ['SQLite read-only file', { code: 'SQLITE_READONLY_DBMOVED', message: 'attempt to write a readonly database' }, 'unavailable'],
    ['SQLite busy timeout', { code: 'SQLITE_BUSY', message: 'database is locked' }, 'busy'],
    ['SQLite busy snapshot', { code: 'SQLITE_BUSY_SNAPSHOT', message: 'database is locked' }, 'busy'],
    ['SQLite locked table', { code: 'SQLITE_LOCKED', message: 'database table is locked' }, 'busy'],
    ['SQLite constraint (a bug)', { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed' }, null],
    ['SQLite syntax (a bug)', { code: 'SQLITE_ERROR', message: 'near "x": syntax error' }, null],
    ['SQLite corruption', { code: 'SQLITE_CORRUPT', message: 'database disk image is malformed' }, null],
    ['PostgreSQL disk full', { code: '53100', message: 'could not extend file' }, 'full'],
    ['PostgreSQL out of memory', { code: '53200', message: 'out of memory' }, 'unavailable'],
    ['PostgreSQL too many connections', { code: '53300', message: 'sorry, too many clients already' }, 'busy'],
    ['PostgreSQL admin shutdown', { code: '57P01', message: 'terminating connection due to administrator command' }, 'unavailable'],
    ['PostgreSQL crash shutdown', { code: '57P02', message: 'terminating connection because of crash of another server process' }, 'unavailable'],
    ['PostgreSQL starting up', { code: '57P03', message: 'the database system is starting up' }, 'unavailable'],
    ['PostgreSQL connection failure', { code: '08006', message: 'connection failure' }, 'unavailable'],
    ['PostgreSQL connection exception', { code: '08000', message: 'connection exception' }, 'unavailable'],
    ['PostgreSQL I/O error', { code: '58030', message: 'could not write' }, 'unavailable'],
    ['PostgreSQL standby after failover', { code: '25006', message: 'cannot execute INSERT in a read-only transaction' }, 'unavailable'],
    ['PostgreSQL statement cancelled', { code: '57014', message: 'canceling statement due to statement timeout' }, 'busy'],
    ['PostgreSQL serialization failure left after retries', { code: '40001', message: 'could not serialize access' }, 'busy'],
    ['PostgreSQL unique violation (a bug)', { code: '23505', message: 'duplicate key value' }, null],
    ['PostgreSQL syntax error (a bug)', { code: '42601', message: 'syntax error' }, null],
    ['PostgreSQL undefined column (a bug)', { code: '42703', message: 'column does not exist' }, null],
    ['connection refused', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, 'unavailable'],
    ['connection reset', { code: 'ECONNRESET', message: 'read ECONNRESET' }, 'unavailable'],
    ['host not found', { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND db' }, 'unavailable'],
    ['pg: connection ended', new Error('Connection terminated unexpectedly'), 'unavailable'],
    ['pg: connect timeout', new Error('timeout exceeded when trying to connect'), 'unavailable'],
    ['pg: broken client', new Error('Client has encountered a connection error and is not queryable'), 'unavailable'],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')"), null],
    ['a file error that is not the store', { code: 'ENOENT', message: 'no such file' }, null],
    ['not an error', 'SQLITE_FULL', null],
    ['nothing', null, null],
    ['a store thread that ended', { code: 'ERR_STORE_THREAD_EXITED', message: "The store's writer thread ended" }, 'unavailable'],
  ];
  for (const [name, error, expected] of cases) {
    it(`${name}: ${expected ?? 'not an outage'}`, () => assert.equal(classifyStoreError(error), expected));
  }
});

describe('a full embedded store', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await setup('sqlite');
    // A route whose query is wrong, as a bug would make it.
    ctx.app.get('/api/v1/test-bug', async () => {
      await sql`SELECT no_such_column FROM realm`.execute(ctx.services.db);
      return {};
    });
    // A read that keeps a reader thread busy, so the thread can die under it.
    ctx.app.get('/api/v1/test-slow', async () => {
      await sql`SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) FROM c) AS n`.execute(ctx.services.db);
      return {};
    });
  });
  after(() => ctx.close());

  /** Caps the file at its present size, as a full disk does (on the connection that writes). */
  const capPages = (pages: number | null) =>
    ctx.store.transact(async (tx) => {
      const count = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(tx)).rows[0]!.page_count;
      await sql.raw(`PRAGMA max_page_count = ${pages ?? count}`).execute(tx);
    });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After, then works again once there is room', async () => {
    await capPages(null);
    let res;
    for (let i = 0; i < 200; i++) {
      res = await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'full', content: `${i} ${'x'.repeat(9000)}` }, { undocumented: true });
      if (res.status !== 200) break;
    }
    assert.deepEqual(
      { status: res!.status, retryAfter: res!.headers['retry-after'], body: res!.body },
      {
        status: 503,
        retryAfter: '60',
        body: { result: 'error', msg: 'The database is out of space; try again later', code: 'DATABASE_UNAVAILABLE', 'retry-after': 60 },
      },
    );
    await capPages(1_073_741_823);
    expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'full', content: 'room again' }));
  });

  it('answers 503 DATABASE_UNAVAILABLE when a store thread dies under a request, then works on a fresh thread', async () => {
    // However long the request takes to reach its long read, the thread ends while it runs it.
    let runsIt: SqliteThread | null = null;
    const send = SqliteThread.prototype.query;
    SqliteThread.prototype.query = function (this: SqliteThread, text, parameters) {
      if (text.includes('RECURSIVE')) runsIt = this;
      return send.call(this, text, parameters);
    };
    let pending;
    try {
      pending = ctx.anonymous().get('/test-slow', {}, { undocumented: true });
      while (!runsIt) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      SqliteThread.prototype.query = send;
    }
    await (runsIt as SqliteThread | null)!.crash();
    const res = await pending;
    assert.deepEqual(
      { status: res.status, retryAfter: res.headers['retry-after'], body: res.body },
      {
        status: 503,
        retryAfter: '5',
        body: { result: 'error', msg: 'The database is unavailable; try again later', code: 'DATABASE_UNAVAILABLE', 'retry-after': 5 },
      },
    );
    expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'after', content: 'a fresh thread' }));
    expectSuccess(await ctx.as('mona').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 }));
  });

  it('keeps 500 INTERNAL_SERVER_ERROR for failures that are bugs', async () => {
    const res = await ctx.anonymous().get('/test-bug', {}, { undocumented: true });
    assert.deepEqual({ status: res.status, body: res.body }, { status: 500, body: { result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' } });
  });
});
