// The event loop's side of one store thread: sends compiled queries, matches the answers to them,
// and turns a thread that ends unexpectedly into a clear error for every query still waiting (the
// error's code makes it a 503 through store-errors.ts), then starts a fresh thread on next use
// (for a file; an in-memory database is gone with its thread).
import { Worker } from 'node:worker_threads';
import type { QueryResult } from 'kysely';
import type { ConnectionRole } from './sqlite.js';
import { STORE_THREAD_EXITED, type ThreadReply, type ThreadRequest } from './sqlite-protocol.js';

/** An error raised in a store thread, with its code (SQLITE_CONSTRAINT_UNIQUE, ...) as SQLite gave it. */
export class StoreThreadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    name = 'SqliteError',
  ) {
    super(message);
    this.name = name;
  }
}

interface Waiting {
  resolve: (result: QueryResult<unknown>) => void;
  reject: (error: Error) => void;
}

// Built, the thread runs the compiled file. Under tsx (tests, development) it runs the TypeScript
// source, and a thread does not inherit tsx's loader: a small bootstrap registers it first.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './sqlite-worker.ts' : './sqlite-worker.js', import.meta.url);
const SOURCE_BOOTSTRAP = FROM_SOURCE
  ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`
  : '';

/** A store thread has little to keep on its heap: rows pass through it, the page cache is SQLite's. */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 };

export class SqliteThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;
  private answered = false;
  /** Why an in-memory store's thread ended, after which every query fails. */
  private dead: string | null = null;
  /** Bumped each time a thread ends: a transaction begun on an earlier thread must not go on. */
  generation = 0;

  constructor(
    readonly path: string,
    readonly role: ConnectionRole,
  ) {}

  /** Queries sent and not yet answered. */
  get load(): number {
    return this.waiting.size;
  }

  get started(): boolean {
    return this.worker !== null;
  }

  /** Whether the running thread has answered a query yet (it has loaded its code and opened its connection). */
  get ready(): boolean {
    return this.answered;
  }

  query(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    if (this.closed) return Promise.reject(new StoreThreadError('The store is closed', STORE_THREAD_EXITED));
    if (this.dead) return Promise.reject(new StoreThreadError(this.dead, STORE_THREAD_EXITED, 'Error'));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, sql, parameters } satisfies ThreadRequest);
    });
  }

  private start(): Worker {
    const options = { workerData: { path: this.path, role: this.role }, resourceLimits: RESOURCE_LIMITS };
    const worker = FROM_SOURCE ? new Worker(SOURCE_BOOTSTRAP, { ...options, eval: true }) : new Worker(WORKER_URL, options);
    worker.on('message', (reply: ThreadReply) => this.answer(reply));
    worker.on('error', (error) => this.fail(worker, `The store's ${this.role} thread failed: ${error.message}`));
    worker.on('exit', (code) => this.fail(worker, `The store's ${this.role} thread ended (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  private answer(reply: ThreadReply): void {
    this.answered = true;
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    if (reply.error) {
      waiting.reject(new StoreThreadError(reply.error.message, reply.error.code, reply.error.name));
      return;
    }
    waiting.resolve({
      rows: reply.rows ?? [],
      ...(reply.changes !== undefined ? { numAffectedRows: BigInt(reply.changes) } : {}),
      ...(reply.insertId !== undefined ? { insertId: reply.insertId } : {}),
    });
  }

  private fail(worker: Worker, message: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.answered = false;
    this.generation++;
    // An in-memory database died with its thread: a fresh one would be empty, so none is started.
    if (this.path === ':memory:' && !this.closed) this.dead = message;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const { reject } of waiting) reject(new StoreThreadError(message, STORE_THREAD_EXITED, 'Error'));
  }

  /** Closes the connection (the writer runs `PRAGMA optimize` first) and ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    const worker = this.worker;
    this.closed = true;
    if (!worker) return;
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const id = this.nextId++;
    const answered = new Promise<void>((resolve) => {
      this.waiting.set(id, { resolve: () => resolve(), reject: () => resolve() });
    });
    worker.postMessage({ id, sql: '', parameters: [], close: true } satisfies ThreadRequest);
    await answered;
    await ended;
  }

  /** For tests: ends the thread abruptly, as a crash would. */
  async crash(): Promise<void> {
    await this.worker?.terminate();
  }
}
