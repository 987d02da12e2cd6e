// Opens one of the two stores behind the same Kysely interface and brings it to the latest schema.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type CompiledQuery, Kysely, Migrator, PostgresDialect, type Transaction } from 'kysely';
import { createRequire } from 'node:module';
import type Pg from 'pg';
import { Checkpointer, type CheckpointerOptions } from './checkpointer.js';
import { GroupCommitter } from './group-commit.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';
import { LoopWriter, type StoreWriter } from './loop-writer.js';
import { PeekConnection } from './peek.js';
import { SqliteThread } from './sqlite-thread.js';
import { ReaderPool, ThreadSqliteDialect } from './thread-dialect.js';
import { withTransaction } from './transaction.js';
import { WriteHealth } from './write-health.js';
import { type Clock, systemClock } from '../services.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Store {
  /** For reads (and the migrations). */
  db: Kysely<Database>;
  kind: StoreKind;
  /** Runs one action in a transaction of its own (or, on SQLite, a savepoint of a group commit). */
  transact<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** SQLite files only: the thread that checkpoints the write-ahead log. */
  checkpointer?: Checkpointer | null;
  /**
   * SQLite files only: runs a compiled read at once on a small read-only connection of the event
   * loop's own, without a trip to a store thread, for the few hot reads of an index lookup or two
   * (PreparedQuery.allNow). Throws if it cannot; callers then run the query as usual.
   */
  readNow?<R>(query: CompiledQuery<R>): R[];
  /**
   * SQLite only: how many statements that may write (commits included) this process has sent to
   * the store so far. While it stands still, this process has changed nothing.
   */
  localWrites?(): number;
  /** SQLite only: the connection that writes and the threads that read (for tests and measurements). */
  threads?: { writer: StoreWriter; readers: () => readonly SqliteThread[] };
  /** PostgreSQL only: the connection pool's use now (for the metrics). */
  poolUse?: () => PoolUse;
  /** Whether writes are failing for lack of disk space (for readiness). */
  writeHealth?: WriteHealth;
}

export interface PoolUse {
  /** Connections open, idle among them, and requests waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

let pgModule: typeof Pg | undefined;
/** The PostgreSQL driver, loaded only by servers that use it (a few MB the embedded store need not carry). */
function loadPg(): typeof Pg {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof Pg;
    // int8 (COUNT(*), bigint timestamps) as JS numbers: every value we keep fits in 2^53.
    pgModule.types.setTypeParser(20, (v) => Number(v));
  }
  return pgModule;
}

export interface StoreOptions {
  /** postgres://...; absent means the embedded SQLite store. */
  databaseUrl?: string | null;
  /** SQLite file, or ':memory:'. */
  sqlitePath?: string;
  /** PostgreSQL schema to use (tests isolate themselves with a fresh one). */
  pgSchema?: string;
  poolSize?: number;
  /** SQLite files: how the background checkpointer runs. */
  checkpoints?: CheckpointerOptions;
  /** PostgreSQL: how long a request waits for a connection before it fails (default 5 s). */
  connectTimeoutMs?: number;
  /** PostgreSQL: told when the server ends a connection (a restart, a failover, an administrator). */
  onConnectionError?: (error: Error) => void;
  /** SQLite files: how many reader threads at most. */
  readerThreads?: number;
  /**
   * SQLite: run the write connection on a thread of its own instead of the event loop (slower
   * sends, see bench/README.md; kept to measure the two against each other).
   */
  writerThread?: boolean;
  /** Times the write failures readiness reports (tests move it by hand). */
  clock?: Clock;
}

/** While the database is away, requests fail within this time rather than wait for it. */
const PG_CONNECT_TIMEOUT_MS = 5000;

/**
 * The pool and every connection it opens get an error listener: a connection the server ends,
 * idle or in use, otherwise raises an unhandled 'error' that stops the process. The pool drops
 * such connections and opens new ones once the server is back.
 */
function watchConnections(pool: Pg.Pool, onError: (error: Error) => void): void {
  // The pool repeats an idle connection's error, which the connection's own listener has reported.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', onError));
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) {
    const pool = new (loadPg().Pool)({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS,
      // A server that vanished without closing its connections (a failover) is noticed.
      keepAlive: true,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    watchConnections(pool, options.onConnectionError ?? (() => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const writeHealth = new WriteHealth(options.clock ?? systemClock);
    return {
      db,
      kind: 'postgres',
      transact: (work) => writeHealth.watch(withTransaction(db, work)),
      writeHealth,
      close: () => db.destroy(),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  return openSqliteStore(options.sqlitePath ?? ':memory:', options);
}

/**
 * Reader threads a file store runs at most (see bench/README.md, "The store's threads"). The second
 * starts only when a read finds the first busy, and ends after 30 s without work. With the writer
 * on a thread of its own, that thread took reads whenever it was free, so concurrent searches had
 * two threads; with one reader they had half the rate (74-87 against 111-134 req/s at 50
 * connections), with two the same (145-154 against 137-149).
 */
const READER_THREADS = 2;

function openSqliteStore(path: string, options: StoreOptions): Store {
  const memory = path === ':memory:';
  const writer: StoreWriter = options.writerThread ? new SqliteThread(path, 'writer') : new LoopWriter(path);
  // An in-memory database exists only on its one connection: the writer thread serves every query.
  const readers = memory ? null : new ReaderPool(path, options.readerThreads ?? READER_THREADS);
  const writes = { count: 0 };
  const db = new Kysely<Database>({ dialect: new ThreadSqliteDialect(writer, readers, writes) });
  const committer = new GroupCommitter(db);
  // Idle means no write since the last looks: only then is the log emptied.
  const checkpointer = memory ? null : new Checkpointer(path, { writes: () => writes.count, ...options.checkpoints });
  const peek = memory ? null : new PeekConnection(path);
  const writeHealth = new WriteHealth(options.clock ?? systemClock);
  return {
    db,
    kind: 'sqlite',
    transact: (work) => writeHealth.watch(committer.run(work)),
    writeHealth,
    checkpointer,
    ...(peek ? { readNow: <R>(query: CompiledQuery<R>) => peek.all(query) } : {}),
    localWrites: () => writes.count,
    threads: { writer, readers: () => readers?.threads ?? [] },
    async close() {
      await checkpointer?.close();
      peek?.close();
      await db.destroy();
    },
  };
}

export function sqlitePathFor(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return join(dataDir, 'confab.db');
}

/** pgSchema: the PostgreSQL schema the store lives in, when not the default one. */
export async function migrateToLatest(db: Kysely<Database>, pgSchema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Names start with their timestamp, so a plain comparison orders them; Kysely's default,
    // localeCompare, loads ICU's collation data on every start.
    nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
