// The write-ahead log is copied back by the background thread, not by the committing request.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { migrateToLatest, openStore } from '../../src/db/connect.js';

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
});
