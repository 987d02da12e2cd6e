// Kysely's SQLite dialect with reads run on store threads (src/db/sqlite-thread.ts) instead of the
// event loop. One writer owns the write connection (on the event loop, src/db/loop-writer.ts, or on
// a thread of its own): a transaction holds it from BEGIN to its end, and writes outside
// transactions take it one at a time, first come first served (Kysely's own lock wakes every
// waiter on each release, n² wake-ups for n waiters). Reads outside transactions go to reader
// threads on read-only connections (WAL: they see the last commit and never wait for the writer).
// An in-memory store has no readers: its one connection is the writer's, and every query takes
// the writer's turn, as on a single connection.
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  RawNode,
  SelectQueryNode,
  SqliteDialect,
} from 'kysely';
import type { StoreWriter } from './loop-writer.js';
import { StoreThreadError, SqliteThread } from './sqlite-thread.js';
import { STORE_THREAD_EXITED } from './sqlite-protocol.js';

class FifoLock {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  get free(): boolean {
    return !this.held;
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/** A reader thread with nothing to do for this long ends, giving back its memory (about 8 MB). */
const READER_IDLE_MS = 30_000;

/**
 * Reader threads, started as reads need them (and one as the store opens): each read goes to an
 * idle one, or the least busy. While the chosen thread is still starting (loading its code and
 * opening its connection, tens of milliseconds), a read the writer is free to take runs there
 * instead of waiting; so do all reads, with a writer on a thread of its own, while none runs (an
 * idle server then keeps one thread).
 */
export class ReaderPool {
  readonly threads: SqliteThread[] = [];
  private readonly lastUsed = new Map<SqliteThread, number>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly path: string,
    private readonly size: number,
    private readonly idleMs = READER_IDLE_MS,
    /** Makes each reader thread (tests substitute threads whose reads they hold and release). */
    private readonly newThread: (path: string) => SqliteThread = (threadPath) => new SqliteThread(threadPath, 'reader'),
  ) {}

  /** Starts a thread now, so that the first reads need not wait for it to start. */
  warm(): void {
    if (this.threads.length === 0) this.start();
  }

  /** The thread for a read: null when the writer is free and should take it (see above). */
  choose(writerFree: boolean, writerOnLoop: boolean): SqliteThread | null {
    let ready: SqliteThread | undefined;
    let any: SqliteThread | undefined;
    for (const thread of this.threads) {
      if (!any || thread.load < any.load) any = thread;
      if (thread.ready && (!ready || thread.load < ready.load)) ready = thread;
    }
    if (!any) {
      if (writerFree && !writerOnLoop) return null;
      any = this.start();
    } else if (ready && ready.load > 0 && ready === any && this.threads.length < this.size) {
      // Every thread is busy with reads (none is still starting): another starts for the next ones.
      this.start();
    }
    // A thread still starting takes no read the writer is free to take; a started one, even busy,
    // is better than the writer on the event loop, where a long read would hold every client.
    const chosen = ready ?? (writerFree ? null : any);
    if (chosen) this.lastUsed.set(chosen, Date.now());
    return chosen;
  }

  private start(): SqliteThread {
    const thread = this.newThread(this.path);
    this.threads.push(thread);
    this.lastUsed.set(thread, Date.now());
    // The first answer marks it ready; a failure to open shows on the reads that come later.
    thread.query('select 1', []).catch(() => undefined);
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(10, this.idleMs / 3)).unref();
    return thread;
  }

  private sweep(): void {
    const now = Date.now();
    for (const thread of [...this.threads]) {
      if (thread.load > 0 || now - (this.lastUsed.get(thread) ?? now) < this.idleMs) continue;
      this.threads.splice(this.threads.indexOf(thread), 1);
      this.lastUsed.delete(thread);
      void thread.close();
    }
    if (this.threads.length === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await Promise.all(this.threads.splice(0).map((thread) => thread.close()));
  }
}

/** One Kysely connection: free-standing statements are routed; a transaction pins it to the writer. */
class ThreadConnection implements DatabaseConnection {
  /** The writer's generation when this connection's transaction began; null outside one. */
  pinned: number | null = null;

  constructor(private readonly driver: ThreadDriver) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { writer, readers, lock } = this.driver;
    // A transaction's statements are counted once, as it ends (commit or rollback): until then
    // nothing it wrote can be seen, and the send path runs dozens of them.
    if (this.pinned !== null) {
      if (writer.generation !== this.pinned) throw lostTransaction();
      return (await writer.query(compiled.sql, compiled.parameters)) as QueryResult<R>;
    }
    const read = isRead(compiled);
    if (!read) this.driver.writes.count++;
    if (readers && read) {
      // A writer on the event loop takes a read only while a reader thread starts.
      const reader = readers.choose(lock.free && writer.load === 0, this.driver.writerOnLoop);
      if (reader) return (await reader.query(compiled.sql, compiled.parameters)) as QueryResult<R>;
    }
    await lock.acquire();
    try {
      return (await writer.query(compiled.sql, compiled.parameters)) as QueryResult<R>;
    } finally {
      lock.release();
    }
  }

  /** The rows come over in one answer and are handed out in chunks (no read here is big enough to need more). */
  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    const { rows } = await this.executeQuery<R>(compiled);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

/**
 * Whether a statement only reads: a built SELECT, or raw SQL that is a plain SELECT (a raw WITH may
 * end in a write, so it goes to the writer). A reader's connection is read-only besides.
 */
function isRead(compiled: CompiledQuery): boolean {
  return SelectQueryNode.is(compiled.query) || (RawNode.is(compiled.query) && /^\s*select\b/i.test(compiled.sql));
}

function lostTransaction(): StoreThreadError {
  return new StoreThreadError('The store thread running this transaction ended; the transaction was lost', STORE_THREAD_EXITED, 'Error');
}

class ThreadDriver implements Driver {
  readonly lock = new FifoLock();
  readonly writerOnLoop: boolean;

  constructor(
    readonly writer: StoreWriter,
    readonly readers: ReaderPool | null,
    readonly writes: WriteCount,
  ) {
    this.writerOnLoop = !(writer instanceof SqliteThread);
  }

  async init(): Promise<void> {
    // The writer opens first: it makes the file and sets WAL mode before any reader opens it.
    await this.writer.query('select 1', []);
    // With the writer on the event loop, a reader starts now, on the other core, while the server
    // migrates and builds its routes: the first request reads.
    if (this.writerOnLoop) this.readers?.warm();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ThreadConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const own = connection as ThreadConnection;
    await this.lock.acquire();
    own.pinned = this.writer.generation;
    await own.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('commit'));
    } finally {
      this.writes.count++;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      this.writes.count++;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quote(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quote(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quote(name)}`));
  }

  /** A transaction's end (commit, or rollback even if that failed) gives the writer to the next in line. */
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const own = connection as ThreadConnection;
    if (own.pinned === null) return;
    own.pinned = null;
    this.lock.release();
  }

  async destroy(): Promise<void> {
    await this.readers?.close();
    await this.writer.close();
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Writes sent outside transactions, and transactions ended (committed or rolled back), so far. */
export interface WriteCount {
  count: number;
}

export class ThreadSqliteDialect extends SqliteDialect {
  constructor(
    readonly writer: StoreWriter,
    readonly readers: ReaderPool | null,
    readonly writes: WriteCount = { count: 0 },
  ) {
    // The base dialect's database is never opened: the driver below replaces its driver.
    super({ database: () => Promise.reject(new Error('unused')) });
  }

  override createDriver(): Driver {
    return new ThreadDriver(this.writer, this.readers, this.writes);
  }
}
