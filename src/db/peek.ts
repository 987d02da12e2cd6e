// A small read-only connection on the event loop, for the one read that must answer synchronously
// (event polls' credential counters, src/http/poll-auth-cache.ts): a trip to a store thread would
// cost more than the primary-key lookup itself. Its page cache is tiny and it maps nothing.
import type { CompiledQuery, SqliteDatabase } from 'kysely';
import { openSqliteConnection } from './sqlite.js';

export class PeekConnection {
  private connection: SqliteDatabase | null = null;
  private closed = false;

  constructor(private readonly path: string) {}

  /** Opened on first use, when the writer has made the file and brought it to the latest schema. */
  all<R>(query: CompiledQuery<R>): R[] {
    if (this.closed) throw new Error('The store is closed');
    this.connection ??= openSqliteConnection(this.path, 'peek');
    return this.connection.prepare(query.sql).all(query.parameters) as R[];
  }

  close(): void {
    this.closed = true;
    this.connection?.close();
    this.connection = null;
  }
}
