// The embedded store's connections: WAL mode, so the reader never waits for the writer, and a
// cache of prepared statements, since Kysely prepares every query afresh.
import SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { BACKSTOP_CHECKPOINT_PAGES } from './checkpointer.js';

/** Distinct SQL texts kept prepared per connection (IN lists of many lengths make many texts). */
const STATEMENT_CACHE_SIZE = 500;

export function openSqliteConnection(path: string): SqliteDatabase {
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // Up to 64 MB of pages in memory per connection; memory-mapped reads go through the OS cache.
  database.pragma('cache_size = -65536');
  database.pragma('mmap_size = 1073741824');
  database.pragma('temp_store = MEMORY');
  // A background thread checkpoints (src/db/checkpointer.ts); this is only the backstop.
  database.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  // Fresh statistics where they are missing or stale: without them some narrows get poor plans.
  // The analysis limit keeps this to a quick sample, even on a large store.
  database.pragma('analysis_limit = 1000');
  database.pragma('optimize = 0x10002');

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
      database.pragma('optimize');
      database.close();
    },
  };
}
