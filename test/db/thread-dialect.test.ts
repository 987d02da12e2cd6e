// The embedded store runs its reads on threads and its writes on the event loop (or, on request, on
// a thread too): errors keep their codes across the boundary, transactions and savepoints behave as
// on one connection, reads go to read-only threads that never see an open transaction's rows, and a
// thread that dies fails its waiting queries rather than hang them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store } from '../../src/db/connect.js';
import { LoopWriter } from '../../src/db/loop-writer.js';
import { SqliteThread } from '../../src/db/sqlite-thread.js';
import { classifyStoreError } from '../../src/db/store-errors.js';

const realm = (name: string) => ({ string_id: name, name, description: '', url: `http://${name}.test`, date_created: 0, deactivated: 0, settings: '{}' });
/** A statement that keeps its thread busy for a while (a search's worth of B-tree work). */
const SLOW = sql<{ n: number }>`SELECT (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) FROM c) AS n`;

/**
 * Runs `work` and answers which of `threads` (by index) were sent statements meanwhile: a read
 * sent to a thread runs off the event loop, whatever the machine's speed.
 */
async function threadsUsedBy(threads: readonly SqliteThread[], work: () => Promise<unknown>): Promise<number[]> {
  const used = new Set<number>();
  for (const [index, thread] of threads.entries()) {
    const query = thread.query.bind(thread);
    thread.query = (text, parameters) => {
      used.add(index);
      return query(text, parameters);
    };
  }
  try {
    await work();
  } finally {
    for (const thread of threads) Reflect.deleteProperty(thread, 'query');
  }
  return [...used].sort();
}

/** Waits, without a time limit of its own, until `condition` holds (the test runner's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

for (const kind of ['file', 'memory', 'file, writer thread'] as const) {
  describe(`store threads [${kind}]`, () => {
    let store: Store;
    let dir: string;
    const onFile = kind !== 'memory';
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'confab-threads-'));
      store = openStore({ sqlitePath: onFile ? join(dir, 'confab.db') : ':memory:', writerThread: kind === 'file, writer thread' });
      await migrateToLatest(store.db);
    });
    after(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const names = async () => (await store.db.selectFrom('realm').select('string_id').orderBy('string_id').execute()).map((r) => r.string_id);

    it("brings SQLite's error code across the thread boundary", async () => {
      await store.transact((tx) => tx.insertInto('realm').values(realm('u1')).execute());
      const error = await store.transact((tx) => tx.insertInto('realm').values(realm('u1')).execute()).catch((e: unknown) => e);
      assert.deepEqual(
        { code: (error as { code?: string }).code, message: (error as Error).message, outage: classifyStoreError(error) },
        { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: realm.string_id', outage: null },
      );
      const syntax = await sql`SELECT no_such_column FROM realm`.execute(store.db).catch((e: unknown) => e);
      assert.equal((syntax as { code?: string }).code, 'SQLITE_ERROR');
    });

    it('reports what a write changed and the row it inserted', async () => {
      const inserted = await store.db.insertInto('realm').values(realm('u2')).executeTakeFirstOrThrow();
      const id = (await store.db.selectFrom('realm').select('id').where('string_id', '=', 'u2').executeTakeFirstOrThrow()).id;
      assert.equal(inserted.insertId, BigInt(id));
      const updated = await store.db.updateTable('realm').set({ description: 'd' }).where('string_id', 'in', ['u1', 'u2']).executeTakeFirstOrThrow();
      assert.equal(updated.numUpdatedRows, 2n);
    });

    it('rolls back a failing action alone inside a group commit, and a failing transaction whole', async () => {
      const results = await Promise.allSettled(
        ['g1', 'g2', 'g3'].map((name) =>
          store.transact(async (tx) => {
            await tx.insertInto('realm').values(realm(name)).execute();
            if (name === 'g2') await tx.insertInto('realm').values(realm('u1')).execute();
            return name;
          }),
        ),
      );
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
      await assert.rejects(
        store.db.transaction().execute(async (tx) => {
          await tx.insertInto('realm').values(realm('t1')).execute();
          throw new Error('changed my mind');
        }),
        /changed my mind/,
      );
      assert.deepEqual(await names(), ['g1', 'g3', 'u1', 'u2']);
    });

    it('streams a read in chunks', async () => {
      const chunks: number[] = [];
      for await (const row of store.db.selectFrom('realm').select('string_id').orderBy('string_id').stream(2)) chunks.push(row.string_id.length);
      assert.equal(chunks.length, 4);
    });

    if (kind === 'file, writer thread') {
      it('writes on a thread of its own', () => assert.ok(store.threads!.writer instanceof SqliteThread));
    } else {
      it('writes on the event loop: an action of several statements commits without waiting for a turn of the loop', async () => {
        assert.ok(store.threads!.writer instanceof LoopWriter);
        let turned = false;
        setImmediate(() => (turned = true));
        await store.db.transaction().execute(async (tx) => {
          await tx.insertInto('realm').values(realm('loop')).execute();
          await tx.updateTable('realm').set({ description: 'on the loop' }).where('string_id', '=', 'loop').execute();
          await tx.deleteFrom('realm').where('string_id', '=', 'loop').execute();
        });
        assert.equal(turned, false);
      });
    }

    if (onFile) {
      it('reads the last commit on a reader thread while a transaction is open, without waiting for it', async () => {
        const tx = await store.db.startTransaction().execute();
        await tx.insertInto('realm').values(realm('open')).execute();
        assert.deepEqual(await names(), ['g1', 'g3', 'u1', 'u2']);
        // Raw SQL that is a plain SELECT reads there too.
        const raw = await sql<{ n: number }>`SELECT count(*) AS n FROM realm`.execute(store.db);
        assert.equal(Number(raw.rows[0]!.n), 4);
        assert.ok(store.threads!.readers().length >= 1, 'a reader thread started');
        await tx.commit().execute();
        assert.deepEqual(await names(), ['g1', 'g3', 'open', 'u1', 'u2']);
        await store.db.deleteFrom('realm').where('string_id', '=', 'open').execute();
      });

      it('answers readNow at once on the event loop, with the last commit', async () => {
        const query = store.db.selectFrom('realm').select('string_id').where('string_id', '=', 'g1').compile();
        assert.deepEqual(store.readNow!(query), [{ string_id: 'g1' }]);
      });

      it('keeps the event loop free while a long read runs: the read goes to a reader thread', async () => {
        const readers = store.threads!.readers();
        await until(() => readers.every((thread) => thread.ready));
        const used = await threadsUsedBy([store.threads!.writer as SqliteThread, ...readers], async () => {
          const { rows } = await SLOW.execute(store.db);
          assert.equal(Number(rows[0]!.n), 3_000_000);
        });
        // Index 0 is the writer: the read never went near it.
        assert.equal(used.length, 1);
        assert.ok(used[0]! > 0);
      });
    } else {
      it('has no reader threads and no readNow: its one connection is the writer', () => {
        assert.deepEqual(store.threads!.readers(), []);
        assert.equal(store.readNow, undefined);
      });
    }

    if (kind === 'file') {
      it('fails the reads waiting on a reader thread that dies with an outage, then reads on a fresh thread', async () => {
        const slow = SLOW.execute(store.db);
        await until(() => store.threads!.readers().some((thread) => thread.load > 0));
        const reader = store.threads!.readers().find((thread) => thread.load > 0)!;
        const waiting = reader.query('SELECT 1', []);
        await reader.crash();
        for (const outcome of [slow, waiting]) {
          const error = await outcome.then(() => null, (e: unknown) => e);
          assert.equal((error as { code?: string } | null)?.code, 'ERR_STORE_THREAD_EXITED');
          assert.equal(classifyStoreError(error), 'unavailable');
        }
        assert.deepEqual(await names(), ['g1', 'g3', 'u1', 'u2']);
      });
    }

    if (kind === 'file, writer thread') it('fails the queries waiting on a thread that dies with an outage', async () => {
      const writer = store.threads!.writer as SqliteThread;
      let longSent = false;
      const send = writer.query.bind(writer);
      writer.query = (text, parameters) => {
        longSent ||= text.includes('RECURSIVE');
        return send(text, parameters);
      };
      const inAction = store.transact((tx) => SLOW.execute(tx));
      const queued = store.transact((tx) => tx.insertInto('realm').values(realm('after-crash')).execute());
      await until(() => longSent);
      Reflect.deleteProperty(writer, 'query');
      // Sent behind the long statement, so still waiting in the thread's queue when it ends.
      const waiting = writer.query('SELECT 1', []);
      await writer.crash();
      for (const outcome of [inAction, waiting]) {
        const error = await outcome.then(() => null, (e: unknown) => e);
        assert.equal((error as { code?: string } | null)?.code, 'ERR_STORE_THREAD_EXITED');
        assert.equal(classifyStoreError(error), 'unavailable');
      }
      // The file outlives the thread: the next action runs on a fresh one.
      await queued;
      assert.deepEqual(await names(), ['after-crash', 'g1', 'g3', 'u1', 'u2']);
    });
  });
}

describe('store threads: start', () => {
  it('starts a reader as the store opens; until it has started, reads run on the free writer, then on the reader', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'confab-threads-'));
    const store = openStore({ sqlitePath: join(dir, 'confab.db') });
    try {
      let turned = false;
      setImmediate(() => (turned = true));
      await migrateToLatest(store.db);
      const [reader] = store.threads!.readers();
      assert.equal(store.threads!.readers().length, 1);
      // A thread answers through the event loop: these reads were answered without a turn of it.
      assert.deepEqual([turned, reader!.ready], [false, false]);
      await until(() => reader!.ready);
      // Started, it takes the reads: a long one leaves the event loop free.
      assert.deepEqual(await threadsUsedBy([reader!], () => SLOW.execute(store.db)), [0]);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('store threads: close', () => {
  it('ends every thread, and fails queries that come later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'confab-threads-'));
    try {
      const store = openStore({ sqlitePath: join(dir, 'confab.db') });
      await migrateToLatest(store.db);
      const tx = await store.db.startTransaction().execute();
      await tx.insertInto('realm').values(realm('c1')).execute();
      await store.db.selectFrom('realm').selectAll().execute();
      const readers = [...store.threads!.readers()];
      assert.equal(readers.length, 1);
      await tx.commit().execute();
      await store.close();
      assert.deepEqual([store.threads!.writer.started, readers[0]!.started], [false, false]);
      const error = await store.db.selectFrom('realm').selectAll().execute().catch((e: unknown) => e);
      assert.equal((error as Error).message, 'driver has already been destroyed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
