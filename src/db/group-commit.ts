// Group commit for the embedded store. SQLite has one writer at a time and each commit rewrites
// every page it touched, so concurrent actions are run one after another inside one transaction,
// each in a savepoint of its own: an action that fails rolls back alone, and all the others
// commit together. Under light load every batch holds one action, so latency is unchanged;
// under heavy load the cost of a commit is shared by the whole batch.
import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

interface Pending {
  work: (tx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** More actions than this wait for the next batch, so one commit never holds too much. */
const MAX_BATCH = 64;
/**
 * Nor does a batch take new actions once it has been open this long: each action in it waits for
 * the commit, so this bounds what batching adds to a send's latency (a commit costs a few
 * milliseconds, so a batch this long still shares it among many actions).
 */
const MAX_BATCH_MS = 20;

/** How long a batch stays open, and the clock that measures it (tests give their own). */
export interface BatchWindow {
  maxMs: number;
  /** Milliseconds, monotonic. */
  now: () => number;
}

const DEFAULT_WINDOW: BatchWindow = { maxMs: MAX_BATCH_MS, now: () => performance.now() };

export class GroupCommitter {
  private readonly queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly window: BatchWindow = DEFAULT_WINDOW,
  ) {}

  run<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) await this.runBatch();
    } finally {
      this.running = false;
    }
  }

  private async runBatch(): Promise<void> {
    const done: Array<{ item: Pending; value: unknown }> = [];
    let trx;
    try {
      trx = await this.db.startTransaction().execute();
    } catch (error) {
      for (const item of this.queue.splice(0)) item.reject(error);
      return;
    }
    // Actions that arrive while the batch runs join it, up to the limit. The store answers without
    // ever leaving the microtask queue, so before committing the batch yields once to the event
    // loop: requests that have arrived meanwhile get parsed and queue their actions here.
    let count = 0;
    const opened = this.window.now();
    while (count < MAX_BATCH && this.window.now() - opened < this.window.maxMs) {
      // With the writer on the event loop an action never leaves the microtask queue, so a batch
      // would hold the loop until it commits; a turn of the loop between actions lets requests be
      // parsed and answered meanwhile (and new actions join this batch).
      if (count > 0 || this.queue.length === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.queue.length === 0) break;
      }
      count++;
      const item = this.queue.shift()!;
      let point;
      try {
        point = await trx.savepoint('action').execute();
      } catch (error) {
        // The transaction itself is gone (its store thread ended): nothing in it can commit.
        return this.abandon(trx, [item, ...done.map(({ item }) => item)], error);
      }
      try {
        const value = await item.work(point);
        await point.releaseSavepoint('action').execute();
        done.push({ item, value });
      } catch (error) {
        try {
          await point.rollbackToSavepoint('action').execute();
          await point.releaseSavepoint('action').execute();
        } catch (lost) {
          item.reject(error);
          return this.abandon(trx, done.map(({ item }) => item), lost);
        }
        item.reject(error);
      }
    }
    try {
      await trx.commit().execute();
    } catch (error) {
      await trx.rollback().execute().catch(() => undefined);
      for (const { item } of done) item.reject(error);
      return;
    }
    for (const { item, value } of done) item.resolve(value);
  }

  /** Fails the batch's actions with the error that broke its transaction, and ends it. */
  private async abandon(trx: ControlledTransaction<Database>, items: Pending[], error: unknown): Promise<void> {
    await trx.rollback().execute().catch(() => undefined);
    for (const item of items) item.reject(error);
  }
}
