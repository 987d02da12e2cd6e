// Reader threads start as reads need them: a read that finds the only reader busy starts a second,
// which takes the reads once it has started. The test holds reads back with a gate of its own, so
// what it checks does not depend on how long a read or a thread's start takes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Kysely, sql } from 'kysely';
import { migrateToLatest } from '../../src/db/connect.js';
import { LoopWriter } from '../../src/db/loop-writer.js';
import type { Database } from '../../src/db/schema.js';
import { SqliteThread } from '../../src/db/sqlite-thread.js';
import { ReaderPool, ThreadSqliteDialect } from '../../src/db/thread-dialect.js';

/**
 * A reader thread whose reads the test holds back while its gate is shut: they count towards its
 * load, as reads waiting in its queue would, and go to the thread once the gate opens.
 */
class GatedReader extends SqliteThread {
  private held = 0;
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;

  constructor(path: string, shut: boolean) {
    super(path, 'reader');
    if (shut) this.shut();
  }

  shut(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  open(): void {
    this.openGate?.();
    this.gate = null;
  }

  override get load(): number {
    return super.load + this.held;
  }

  override async query(text: string, parameters: readonly unknown[]) {
    if (this.gate) {
      this.held++;
      try {
        await this.gate;
      } finally {
        this.held--;
      }
    }
    return super.query(text, parameters);
  }
}

describe('store threads: a second reader', () => {
  it('starts when a read finds the first reader busy, and takes the reads once it has started', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'confab-threads-'));
    const path = join(dir, 'confab.db');
    // The first reader opens at once; the second is held back until the test lets it start.
    const readers: GatedReader[] = [];
    const pool = new ReaderPool(path, 2, undefined, (threadPath) => {
      const reader = new GatedReader(threadPath, readers.length > 0);
      readers.push(reader);
      return reader;
    });
    const db = new Kysely<Database>({ dialect: new ThreadSqliteDialect(new LoopWriter(path), pool) });
    const allReady = async () => {
      while (!pool.threads.every((thread) => thread.ready)) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    const count = async () => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM realm`.execute(db)).rows[0]!.n);
    try {
      await migrateToLatest(db);
      await allReady();
      assert.equal(pool.threads.length, 1);
      const [first] = readers;
      // The first reader is busy for as long as the test says.
      first!.shut();
      let busyDone = false;
      const busy = count().then(() => (busyDone = true));
      // Queued behind the busy read (not run on the event loop), it starts a second reader.
      const queued = count();
      // Kysely hands both reads to the driver within a turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(pool.threads.length, 2);
      // The busy read and the count on the first; the second has only its start-up query.
      assert.deepEqual(pool.threads.map((thread) => thread.load), [2, 1]);
      readers[1]!.open();
      await allReady();
      // Started, the second reader takes the next read while the first is still busy.
      assert.deepEqual([await count(), busyDone], [0, false]);
      assert.deepEqual(pool.threads.map((thread) => thread.load), [2, 0]);
      first!.open();
      await Promise.all([busy, queued]);
      assert.equal(busyDone, true);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
