// Copies the SQLite write-ahead log back into the database file on a thread of its own.
// Left to SQLite, the commit that crosses the log's size limit does the copy (and its fsync)
// on the event loop; a message to a large stream writes a page per recipient, so that would
// land on most sends. Here the request threads never checkpoint, except as a backstop when the
// log grows far beyond the usual size.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages (4 KiB) of log after which a connection checkpoints by itself anyway. */
export const BACKSTOP_CHECKPOINT_PAGES = 25_000;

export interface CheckpointerOptions {
  /** Checkpoint once the log holds at least this many bytes. */
  minBytes?: number;
  intervalMs?: number;
}

// CommonJS run by the worker: the driver is loaded by path, so the worker needs no loader hooks.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
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
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'count') { parentPort.postMessage(checkpoints); return; }
  clearInterval(timer);
  db.close();
  parentPort.postMessage('closed');
});
`;

export class Checkpointer {
  private readonly worker: Worker;

  constructor(path: string, options: CheckpointerOptions = {}) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, driver, minBytes: options.minBytes ?? 4 * 1024 * 1024, intervalMs: options.intervalMs ?? 250 },
    });
    // The worker holds no requests; it must not keep the process alive.
    this.worker.unref();
  }

  /** How many checkpoints the worker has run (for tests). */
  count(): Promise<number> {
    return this.ask('count') as Promise<number>;
  }

  async close(): Promise<void> {
    await this.ask('close');
    await this.worker.terminate();
  }

  private ask(message: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
      this.worker.postMessage(message);
    });
  }
}
