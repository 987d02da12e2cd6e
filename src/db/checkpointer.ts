// Copies the SQLite write-ahead log back into the database file on a thread of its own, and keeps
// the log's file from staying as large as it once grew. Left to SQLite, the commit that crosses the
// log's size limit does the copy (and its fsync) on the event loop; a message to a large stream
// writes a page per recipient, so that would land on most sends. Here the request threads never
// checkpoint, except as a backstop when the log grows far beyond the usual size.
//
// A passive checkpoint copies the log back but leaves its file as large as it grew: readers that
// keep the log in use stop it from starting over, and it grows past the limit (15.7 MB beside a
// 5.2 MB database filled a 20 MB disk). The writer cuts the file back to LOG_SIZE_LIMIT_BYTES when
// the log starts over (journal_size_limit, src/db/sqlite.ts), and once the store has written
// nothing for a while the thread empties it (wal_checkpoint(TRUNCATE)). That waits for no one: on
// an idle store it takes the write lock for no longer than a write would.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type Clock, systemClock } from '../services.js';

/** Pages (4 KiB) of log after which a connection checkpoints by itself anyway. */
export const BACKSTOP_CHECKPOINT_PAGES = 25_000;
/** The log's file is cut back to this when it starts over, and emptied past it when the store is idle. */
export const LOG_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

export interface CheckpointerOptions {
  /** Checkpoint once the log holds at least this many bytes. */
  minBytes?: number;
  intervalMs?: number;
  /** Empty the log's file once it is larger than this and the store is idle. */
  truncateBytes?: number;
  /** The store is idle once it has sent no write for this long. */
  idleMs?: number;
  /** How many statements that may write the store has sent so far (the store's localWrites). */
  writes?: () => number;
  clock?: Clock;
}

// CommonJS run by the worker: the driver is loaded by path, so the worker needs no loader hooks.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
// A truncation that finds the log in use gives up at once (the next idle tick tries again) rather
// than hold the write lock while it waits.
db.pragma('busy_timeout = 0');
let checkpoints = 0;
function walBytes() {
  try { return statSync(workerData.path + '-wal').size; } catch { return 0; }
}
function checkpoint() {
  if (walBytes() < workerData.minBytes) return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    checkpoints++;
  } catch {
    // Busy or locked: the next tick tries again.
  }
}
function truncate() {
  try {
    return db.pragma('wal_checkpoint(TRUNCATE)')[0].busy === 0;
  } catch {
    return false;
  }
}
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', ({ id, kind }) => {
  if (kind === 'count') return parentPort.postMessage({ id, value: checkpoints });
  if (kind === 'truncate') return parentPort.postMessage({ id, value: truncate() });
  clearInterval(timer);
  db.close();
  parentPort.postMessage({ id, value: 'closed' });
});
`;

export class Checkpointer {
  private worker: Worker | null = null;
  private readonly watch: NodeJS.Timeout;
  private readonly answers = new Map<number, (value: unknown) => void>();
  private nextId = 1;
  private ticking: Promise<void> | null = null;
  /** The write count last seen, and when (ms) it last moved. */
  private lastWrites = -1;
  private lastWriteAt = 0;

  constructor(
    readonly path: string,
    private readonly options: CheckpointerOptions = {},
  ) {
    this.watch = setInterval(() => void this.tick(), this.intervalMs);
    this.watch.unref();
  }

  private get minBytes(): number {
    return this.options.minBytes ?? LOG_SIZE_LIMIT_BYTES;
  }

  private get intervalMs(): number {
    return this.options.intervalMs ?? 250;
  }

  /** The size of the log's file now. */
  walBytes(): number {
    try {
      return statSync(`${this.path}-wal`).size;
    } catch {
      return 0;
    }
  }

  /**
   * One look at the log (the timer's, or a test's): starts the thread once the log first grows
   * large, and empties a log past its size while the store is idle.
   */
  tick(): Promise<void> {
    this.ticking ??= this.look().finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async look(): Promise<void> {
    const size = this.walBytes();
    // A thread costs about 15 MB, so it starts only once the log first grows large.
    if (size >= this.minBytes) this.start();
    if (size > (this.options.truncateBytes ?? LOG_SIZE_LIMIT_BYTES) && this.idle()) {
      await this.ask(this.start(), 'truncate').catch(() => undefined);
    }
  }

  private idle(): boolean {
    const now = (this.options.clock ?? systemClock).now() * 1000;
    const writes = this.options.writes?.() ?? 0;
    if (writes !== this.lastWrites) {
      this.lastWrites = writes;
      this.lastWriteAt = now;
      return false;
    }
    return now - this.lastWriteAt >= (this.options.idleMs ?? 2000);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, driver, minBytes: this.minBytes, intervalMs: this.intervalMs },
    });
    worker.on('message', ({ id, value }: { id: number; value: unknown }) => {
      this.answers.get(id)?.(value);
      this.answers.delete(id);
    });
    // The worker holds no requests; it must not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Whether the checkpoint thread has started. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** How many checkpoints the worker has run (for tests). */
  async count(): Promise<number> {
    return this.worker ? ((await this.ask(this.worker, 'count')) as number) : 0;
  }

  async close(): Promise<void> {
    clearInterval(this.watch);
    await this.ticking;
    if (!this.worker) return;
    await this.ask(this.worker, 'close');
    await this.worker.terminate();
  }

  private ask(worker: Worker, kind: 'count' | 'truncate' | 'close'): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const failed = (error: Error) => {
        this.answers.delete(id);
        reject(error);
      };
      worker.once('error', failed);
      this.answers.set(id, (value) => {
        worker.off('error', failed);
        resolve(value);
      });
      worker.postMessage({ id, kind });
    });
  }
}
