// The embedded store's connections: WAL mode, so readers never wait for the writer, caches sized to
// the data, and a cache of prepared statements, since Kysely prepares every query afresh.
import { statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { BACKSTOP_CHECKPOINT_PAGES, LOG_SIZE_LIMIT_BYTES } from './checkpointer.js';

/** Distinct SQL texts kept prepared per connection (IN lists of many lengths make many texts). */
const STATEMENT_CACHE_SIZE = 500;

const MB = 1024 * 1024;

/**
 * What a connection does: the writer (or an in-memory store's only connection) writes and keeps the
 * dirty pages of a batch; a reader only reads; `peek` serves one tiny hot read on the event loop.
 */
export type ConnectionRole = 'writer' | 'reader' | 'peek';

/**
 * Page cache in KiB (SQLite's negative cache_size): an eighth of the file, between 2 and 8 MB. Pages
 * past it are read again from the OS's cache, which every connection shares and which does not count
 * against the process; with 32 MB per connection a busy server held some 50 MB more for little gain.
 */
export function cacheKibFor(fileBytes: number, role: ConnectionRole): number {
  if (role === 'peek') return 256;
  return Math.round(Math.min(8 * MB, Math.max(2 * MB, fileBytes / 8)) / 1024);
}

function fileBytes(path: string): number {
  if (path === ':memory:') return 0;
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function openSqliteDatabase(path: string, role: ConnectionRole = 'writer'): SQLite.Database {
  const size = fileBytes(path);
  // A peek connection opens after the writer has made the file; readers never write.
  const database = new SQLite(path, role === 'writer' ? {} : { readonly: true });
  if (role === 'writer') {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    // A background thread checkpoints (src/db/checkpointer.ts); this is only the backstop.
    database.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    // The log's file is cut back to this each time the log starts over, rather than keep the size it grew to.
    database.pragma(`journal_size_limit = ${LOG_SIZE_LIMIT_BYTES}`);
  }
  database.pragma('busy_timeout = 5000');
  database.pragma(`cache_size = -${cacheKibFor(size, role)}`);
  // No memory map: every page a map has touched stays in the process's resident memory (83 MB after
  // ten minutes of sends and fetches on the million-message set), and reads from the OS's cache
  // were as fast in the same runs.
  database.pragma('mmap_size = 0');
  database.pragma('temp_store = MEMORY');
  if (role === 'writer') {
    // Fresh statistics where they are missing or stale: without them some narrows get poor plans.
    // The analysis limit keeps this to a sample on a large store (a few milliseconds per index).
    // The sample is an index's first rows, so it must cover small tables whole: with 1,000, the
    // bench's subscriptions (6,265 rows, the first 1,000 those of the stream everyone is in) gave
    // 501 rows per stream instead of 32, and the send's subscriber query scanned every user
    // instead of reading the stream's 50 subscriptions (0.23 ms instead of 0.03).
    database.pragma('analysis_limit = 20000');
    database.pragma('optimize = 0x10002');
  }
  return database;
}

/** The connection behind Kysely's interface, with an LRU cache of prepared statements. */
function withStatementCache(database: SQLite.Database, role: ConnectionRole = 'writer'): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        // Move to the back: the map's first key is the least recently used.
        statements.delete(sql);
      } else {
        statement = database.prepare(sql) as unknown as SqliteStatement;
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      if (role === 'writer' && database.open) database.pragma('optimize');
      database.close();
    },
  };
}

export function openSqliteConnection(path: string, role: ConnectionRole = 'writer'): SqliteDatabase {
  return withStatementCache(openSqliteDatabase(path, role), role);
}
