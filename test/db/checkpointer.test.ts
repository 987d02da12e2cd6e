// The write-ahead log is copied back by the background thread, not by the committing request, and
// it does not keep the size it once grew to: it is cut back when it starts over, and emptied while
// the store is idle.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { LOG_SIZE_LIMIT_BYTES } from '../../src/db/checkpointer.js';
import { migrateToLatest, openStore, type Store, type StoreOptions } from '../../src/db/connect.js';
import { TestClock } from '../support/clock.js';

/** `rows` realms of some 450 bytes each, in one transaction. */
async function writeRealms(store: Store, rows: number, tag: string): Promise<void> {
  await store.transact(async (tx) => {
    for (let i = 0; i < rows; i += 50) {
      const values = Array.from({ length: Math.min(50, rows - i) }, (_, j) => ({
        string_id: `${tag}${i}-${j}`, name: 'x'.repeat(400), description: '', url: `http://${tag}${i}-${j}.test`, date_created: 0, deactivated: 0, settings: '{}',
      }));
      await tx.insertInto('realm').values(values).execute();
    }
  });
}

async function withFileStore(options: Omit<StoreOptions, 'sqlitePath'>, test: (store: Store, path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'confab-checkpoint-'));
  const path = join(dir, 'confab.db');
  const store = openStore({ ...options, sqlitePath: path });
  try {
    await migrateToLatest(store.db);
    await test(store, path);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const walBytes = (path: string) => statSync(`${path}-wal`).size;

describe('background checkpoints (SQLite)', () => {
  it('checkpoints a grown log on its own thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'confab-checkpoint-'));
    const path = join(dir, 'confab.db');
    const store = openStore({ sqlitePath: path, checkpoints: { minBytes: 256 * 1024, intervalMs: 20 } });
    try {
      await migrateToLatest(store.db);
      const checkpointer = store.checkpointer!;
      const before = await checkpointer.count();
      // About 1 MB of rows: well past the 256 KB threshold.
      await store.transact(async (tx) => {
        for (let i = 0; i < 40; i++) {
          const values = Array.from({ length: 50 }, (_, j) => ({
            string_id: `r${i}-${j}`, name: 'x'.repeat(400), description: '', url: `http://r${i}-${j}.test`, date_created: 0, deactivated: 0, settings: '{}',
          }));
          await tx.insertInto('realm').values(values).execute();
        }
      });
      assert.ok(statSync(`${path}-wal`).size >= 256 * 1024);
      let count = before;
      const deadline = Date.now() + 5000;
      while (count === before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        count = await checkpointer.count();
      }
      assert.ok(count > before, 'the worker checkpointed the grown log');
      assert.equal(checkpointer.running, true);
      const rows = await store.db.selectFrom('realm').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(rows.n), 2000);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not checkpoint a small log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'confab-checkpoint-'));
    const store = openStore({ sqlitePath: join(dir, 'confab.db'), checkpoints: { minBytes: 64 * 1024 * 1024, intervalMs: 5 } });
    try {
      await migrateToLatest(store.db);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // No thread is started for a log that never grew large.
      assert.equal(store.checkpointer!.running, false);
      assert.equal(await store.checkpointer!.count(), 0);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not start for an in-memory store', async () => {
    const store = openStore({ sqlitePath: ':memory:' });
    assert.equal(store.checkpointer, null);
    await store.close();
  });

  // Ticks are driven by the test (the timer's interval is an hour), and idleness is read off a test clock.
  const idleOptions = (clock: TestClock, truncateBytes = 256 * 1024) => ({ checkpoints: { minBytes: 64 * 1024, truncateBytes, idleMs: 1000, intervalMs: 3_600_000, clock } });

  it('empties a grown log once the store has written nothing for a while', async () => {
    const clock = new TestClock();
    await withFileStore(idleOptions(clock), async (store, path) => {
      const checkpointer = store.checkpointer!;
      await writeRealms(store, 2000, 'r');
      assert.ok(walBytes(path) >= 512 * 1024);
      // The first look sees the writes; half a second later the store has not been idle long enough.
      await checkpointer.tick();
      clock.advance(0.5);
      await checkpointer.tick();
      assert.ok(walBytes(path) >= 512 * 1024, 'kept while the store may still be busy');
      clock.advance(0.5);
      await checkpointer.tick();
      assert.equal(walBytes(path), 0);
      assert.equal(checkpointer.walBytes(), 0);
      const rows = await store.db.selectFrom('realm').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(rows.n), 2000);
    });
  });

  it('keeps a grown log while writes go on', async () => {
    const clock = new TestClock();
    await withFileStore(idleOptions(clock), async (store, path) => {
      const checkpointer = store.checkpointer!;
      await writeRealms(store, 2000, 'a');
      await checkpointer.tick();
      for (const tag of ['b', 'c', 'd']) {
        clock.advance(1);
        await writeRealms(store, 1, tag);
        await checkpointer.tick();
        assert.ok(walBytes(path) >= 512 * 1024, `kept after the write ${tag}`);
      }
    });
  });

  it('keeps a log below the size, however idle', async () => {
    const clock = new TestClock();
    await withFileStore(idleOptions(clock, 2 * 1024 * 1024), async (store, path) => {
      await writeRealms(store, 100, 's');
      const size = walBytes(path);
      assert.ok(size > 0 && size < 2 * 1024 * 1024, `${size} bytes`);
      await store.checkpointer!.tick();
      clock.advance(60);
      await store.checkpointer!.tick();
      assert.equal(walBytes(path), size);
    });
  });

  it('cuts a log that grew past the limit back to it when the log starts over', async () => {
    // No background checkpoints here: the test copies the log back itself, as the thread would.
    await withFileStore({ checkpoints: { minBytes: 1024 * 1024 * 1024, intervalMs: 3_600_000 } }, async (store, path) => {
      await writeRealms(store, Math.ceil((LOG_SIZE_LIMIT_BYTES * 1.5) / 450), 'g');
      assert.ok(walBytes(path) > LOG_SIZE_LIMIT_BYTES);
      const other = new SQLite(path);
      try {
        const [result] = other.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
        assert.equal(result!.checkpointed, result!.log, 'the whole log was copied back');
      } finally {
        other.close();
      }
      // The next commit starts the log over, and cuts the file back.
      await writeRealms(store, 1, 'after');
      assert.ok(walBytes(path) <= LOG_SIZE_LIMIT_BYTES, `${walBytes(path)} bytes`);
    });
  });
});
