// A small read-only connection on the event loop, for the few reads of an index lookup or two on
// hot paths (the credential counters of src/http/credential-cache.ts, GET /users/me): a trip to a
// store thread would cost more than the lookup itself. Its page cache is tiny and it maps nothing.
import type { CompiledQuery, SqliteDatabase, SqliteStatement } from 'kysely';
import { openSqliteConnection } from './sqlite.js';

/** More than the hot queries that come here; past it the statements are prepared again. */
const MAX_STATEMENTS = 64;

export class PeekConnection {
  private connection: SqliteDatabase | null = null;
  private closed = false;
  /** Its statements by SQL text: the few hot queries that come here are prepared once. */
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(private readonly path: string) {}

  /** Opened on first use, when the writer has made the file and brought it to the latest schema. */
  all<R>(query: CompiledQuery<R>): R[] {
    if (this.closed) throw new Error('The store is closed');
    this.connection ??= openSqliteConnection(this.path, 'peek');
    let statement = this.statements.get(query.sql);
    if (!statement) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      statement = this.connection.prepare(query.sql);
      this.statements.set(query.sql, statement);
    }
    return statement.all(query.parameters) as R[];
  }

  close(): void {
    this.closed = true;
    this.statements.clear();
    this.connection?.close();
    this.connection = null;
  }
}
