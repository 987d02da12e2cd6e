// The messages between the event loop and a store thread (src/db/sqlite-worker.ts).

export interface ThreadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
  /** Close the connection and end the thread. */
  close?: true;
}

export interface ThreadReply {
  id: number;
  rows?: unknown[];
  /** Rows a write changed, and the last row id it inserted. */
  changes?: number;
  insertId?: bigint;
  /** The failure, with SQLite's code (SQLITE_BUSY, SQLITE_CONSTRAINT_UNIQUE, ...) kept. */
  error?: { message: string; name: string; code?: string };
}

/** The code of the error every pending query gets when a store thread ends unexpectedly. */
export const STORE_THREAD_EXITED = 'ERR_STORE_THREAD_EXITED';
