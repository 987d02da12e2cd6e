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
import { openSqliteConnection } from './sqlite.js';
import { FifoSqliteDialect } from './sqlite-dialect.js';
import { withTransaction } from './transaction.js';

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
   * SQLite only: runs a compiled read at once on the reading connection, without waiting a turn,
   * for the one hot path that must not (event polls' credential counters). Throws if the
   * connection is busy; callers then run the query as usual.
   */
  readNow?<R>(query: CompiledQuery<R>): R[];
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
    return { db, kind: 'postgres', transact: (work) => withTransaction(db, work), close: () => db.destroy() };
  }
  const path = options.sqlitePath ?? ':memory:';
  const readerConnection = openSqliteConnection(path);
  const reader = new Kysely<Database>({ dialect: new FifoSqliteDialect({ database: readerConnection }) });
  // A second connection to the same file writes, so reads never queue behind a batch of writes.
  // (An in-memory database exists only on its one connection.)
  const writer =
    path === ':memory:' ? reader : new Kysely<Database>({ dialect: new FifoSqliteDialect({ database: openSqliteConnection(path) }) });
  const committer = new GroupCommitter(writer);
  const checkpointer = path === ':memory:' ? null : new Checkpointer(path, options.checkpoints);
  return {
    db: reader,
    kind: 'sqlite',
    transact: (work) => committer.run(work),
    checkpointer,
    readNow: <R>(query: CompiledQuery<R>) => readerConnection.prepare(query.sql).all(query.parameters) as R[],
    async close() {
      await checkpointer?.close();
      if (writer !== reader) await writer.destroy();
      await reader.destroy();
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
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
