// A store that cannot start for lack of disk space says so in one line, naming where space is
// needed, instead of the driver's stack trace. On a full disk SQLite fails in more than one way
// (SQLITE_FULL writing a new store's first page, SQLITE_IOERR_SHMSIZE making an existing store's
// shared-memory file), so an I/O failure counts as lack of space when the disk has too little left.
import { statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LOG_SIZE_LIMIT_BYTES } from './checkpointer.js';
import { classifyStoreError } from './store-errors.js';

const MB = 1024 * 1024;

/**
 * Free space the embedded store wants at start: the write-ahead log may grow to its limit several
 * times over while long reads keep it from starting over, and the database grows with it.
 */
export const STARTUP_FREE_BYTES = 4 * LOG_SIZE_LIMIT_BYTES;

/** Free bytes on the disk holding `path` (or its nearest folder that exists); null if unknown. */
export function freeBytes(path: string): number | null {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    try {
      const stats = statfsSync(dir);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dir === dirname(dir)) return null;
    }
  }
}

function isDiskError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || classifyStoreError(error) === 'full' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR'));
}

/** The line to print when starting failed for lack of space; null when `error` is something else. */
export function outOfSpaceMessage(error: unknown, store: { dataDir: string; databaseUrl?: string | null }): string | null {
  if (!isDiskError(error)) return null;
  if (store.databaseUrl && classifyStoreError(error) === 'full') {
    return `Confab cannot start: the PostgreSQL server is out of disk space (${(error as Error).message}).`;
  }
  const free = freeBytes(store.dataDir);
  if (free === null || free >= STARTUP_FREE_BYTES) return null;
  return `Confab cannot start: the disk holding the data directory ${resolve(store.dataDir)} is full (${(free / MB).toFixed(1)} MB free); it needs at least ${STARTUP_FREE_BYTES / MB} MB free.`;
}
