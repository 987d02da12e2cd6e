// The write connection on the event loop. A write statement is short (a few B-tree pages), far
// shorter than a trip to a store thread and back, and an action runs a dozen of them in a row while
// it holds the writer: on a thread each of those trips was waited for, so group commit spent most
// of its time waiting and sends fell to a third. Reads outside transactions, the slow part, still
// go to reader threads (src/db/thread-dialect.ts).
import type { QueryResult, SqliteDatabase, SqliteStatement } from 'kysely';
import { openSqliteConnection } from './sqlite.js';
import { StoreThreadError } from './sqlite-thread.js';
import { STORE_THREAD_EXITED } from './sqlite-protocol.js';

/** What the dialect needs of the connection that writes, on the event loop or on a thread. */
export interface StoreWriter {
  query(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>>;
  /** Queries sent and not yet answered (always 0 on the event loop). */
  readonly load: number;
  /** Bumped each time the connection is lost: a transaction begun before must not go on. */
  readonly generation: number;
  readonly started: boolean;
  close(): Promise<void>;
}

export class LoopWriter implements StoreWriter {
  private connection: SqliteDatabase | null = null;
  private closed = false;
  readonly load = 0;
  readonly generation = 0;

  constructor(readonly path: string) {}

  get started(): boolean {
    return this.connection !== null;
  }

  /** Runs at once; the promise only carries the answer, so an action never leaves the microtask queue. */
  query(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    try {
      return Promise.resolve(this.run(sql, parameters));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The same, synchronously (for a caller that must not wait, and for the promise above). */
  run(sql: string, parameters: readonly unknown[]): QueryResult<unknown> {
    if (this.closed) throw new StoreThreadError('The store is closed', STORE_THREAD_EXITED);
    this.connection ??= openSqliteConnection(this.path, 'writer');
    const statement: SqliteStatement = this.connection.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) as unknown[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      rows: [],
      numAffectedRows: BigInt(changes),
      ...(lastInsertRowid !== undefined ? { insertId: BigInt(lastInsertRowid) } : {}),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The connection runs `PRAGMA optimize` as it closes (src/db/sqlite.ts).
    this.connection?.close();
    this.connection = null;
  }
}
