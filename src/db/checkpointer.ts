// Copies the SQLite write-ahead log back into the database file on a thread of its own.
// Left to SQLite, the commit that crosses the log's size limit does the copy (and its fsync)
// on the event loop; a message to a large stream writes a page per recipient, so that would
// land on most sends. Here the request threads never checkpoint, except as a backstop when the
// log grows far beyond the usual size.
import { statSync } from 'node:fs';
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
  private worker: Worker | null = null;
  private readonly watch: NodeJS.Timeout;

  constructor(
    private readonly path: string,
    private readonly options: CheckpointerOptions = {},
  ) {
    // A thread costs about 15 MB, so it starts only once the log first grows large.
    this.watch = setInterval(() => {
      if (walBytes(path) >= this.minBytes) this.start();
    }, this.intervalMs);
    this.watch.unref();
  }

  private get minBytes(): number {
    return this.options.minBytes ?? 4 * 1024 * 1024;
  }

  private get intervalMs(): number {
    return this.options.intervalMs ?? 250;
  }

  private start(): void {
    clearInterval(this.watch);
    if (this.worker) return;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, driver, minBytes: this.minBytes, intervalMs: this.intervalMs },
    });
    // The worker holds no requests; it must not keep the process alive.
    this.worker.unref();
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
    if (!this.worker) return;
    await this.ask(this.worker, 'close');
    await this.worker.terminate();
  }

  private ask(worker: Worker, message: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(message);
    });
  }
}

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
