// Which failures of a store are outages rather than bugs. A request that fails because the
// database is away, full or too busy is worth retrying later, and clients are told so (503 with
// Retry-After); anything else stays an internal error. Pure: it reads only the error's code and
// message as SQLite, PostgreSQL, the pg driver and Node's sockets report them.
import { STORE_THREAD_EXITED } from './sqlite-protocol.js';

export type StoreFailure = 'unavailable' | 'full' | 'busy';

/** Node's socket errors on the way to (or from) a database server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH',
  'EHOSTDOWN', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN',
]);

/** What pg says, without a code, when its connection is gone or cannot be had. */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Client was closed and is not queryable',
];

function sqlite(code: string): StoreFailure | null {
  // The log's shared-memory index could not grow: on a full disk, the write's own failure.
  if (code === 'SQLITE_IOERR_SHMSIZE') return 'full';
  // Extended codes (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT, ...) share their family's meaning.
  const family = /^SQLITE_[A-Z]+/.exec(code)?.[0];
  switch (family) {
    case 'SQLITE_FULL':
      return 'full';
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'busy';
    case 'SQLITE_IOERR':
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
    case 'SQLITE_NOMEM':
    case 'SQLITE_PROTOCOL':
      return 'unavailable';
    default:
      return null;
  }
}

function postgres(sqlstate: string): StoreFailure | null {
  if (sqlstate === '53100') return 'full'; // disk_full
  if (sqlstate === '53300' || sqlstate === '55P03' || sqlstate === '57014') return 'busy'; // too many connections, lock not available, statement cancelled
  // Serialization failures and deadlocks left after the transaction helper's retries.
  if (sqlstate === '40001' || sqlstate === '40P01') return 'busy';
  // Connection exceptions, insufficient resources, operator intervention (admin or crash
  // shutdown, cannot connect now), system errors, and a server that became read-only (a standby
  // after a failover).
  if (/^(08|53|57P|58)/.test(sqlstate) || sqlstate === '25006') return 'unavailable';
  return null;
}

/** The kind of outage `error` reports, or null when it is not one (a bug, or a client's mistake). */
export function classifyStoreError(error: unknown): StoreFailure | null {
  if (error === null || typeof error !== 'object') return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_')) return sqlite(code);
    // A store thread that ended with queries still waiting (src/db/sqlite-thread.ts).
    if (code === STORE_THREAD_EXITED) return 'unavailable';
    if (SOCKET_CODES.has(code)) return 'unavailable';
    if (/^[0-9A-Z]{5}$/.test(code)) return postgres(code);
  }
  if (typeof message === 'string' && PG_CONNECTION_MESSAGES.some((m) => message.startsWith(m))) return 'unavailable';
  return null;
}
