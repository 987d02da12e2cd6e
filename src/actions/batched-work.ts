// Bulk changes (marking everything read, deleting a topic) run as a series of short
// transactions, newest rows first, so other requests are served between them and a request
// cut short by its time budget still leaves finished work behind for the client to continue.
import type { RealmRow, UserRow } from '../db/schema.js';
import type { Services } from '../services.js';
import { type ActionContext, runAction } from './context.js';

export interface BulkLimits {
  /** Seconds of the services clock one request may spend before answering `complete: false`. */
  timeBudgetSeconds: number;
  /** Rows per transaction when marking messages read. */
  readBatchSize: number;
  /** Messages per transaction when deleting a topic. */
  deleteBatchSize: number;
  /** Told how long each batch's transaction took (milliseconds of wall time); for measurements. */
  onBatch?: (milliseconds: number) => void;
}

/**
 * The reference server's 50 s budget and 100 deletions per transaction. Read marks go 1000 at a
 * time (the reference does 2000): on SQLite each batch holds the event loop while it writes, and
 * halving it halved the longest wait of other requests for the same total time (bench/mark-all-read.ts).
 */
const DEFAULT_BULK_LIMITS: Readonly<BulkLimits> = { timeBudgetSeconds: 50, readBatchSize: 1000, deleteBatchSize: 100 };

/** The limits in force; tests and benchmarks change them through setBulkLimits. */
export const bulkLimits: BulkLimits = { ...DEFAULT_BULK_LIMITS };

export function setBulkLimits(changes: Partial<BulkLimits>): void {
  Object.assign(bulkLimits, changes);
}

export function resetBulkLimits(): void {
  for (const key of Object.keys(bulkLimits) as Array<keyof BulkLimits>) delete bulkLimits[key];
  Object.assign(bulkLimits, DEFAULT_BULK_LIMITS);
}

/** What one batch reports: whether nothing is left to do after it. */
export type BatchOutcome = { done: boolean };

/**
 * Runs `batch` in its own transaction until it reports done or, with a budget, until the budget
 * is spent; the first batch always runs, so every call makes progress. Returns whether all is done.
 */
export async function runBatches(
  services: Services,
  user: UserRow,
  realm: RealmRow,
  batch: (ctx: ActionContext) => Promise<BatchOutcome>,
  options: { budgeted: boolean },
): Promise<boolean> {
  const deadline = services.clock.now() + bulkLimits.timeBudgetSeconds;
  for (let first = true; ; first = false) {
    if (!first && options.budgeted && services.clock.now() >= deadline) return false;
    const started = performance.now();
    const { done } = await runAction(services, user, realm, batch);
    bulkLimits.onBatch?.(performance.now() - started);
    if (done) return true;
    // Let requests that arrived during the batch be read and served before the next one starts.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
