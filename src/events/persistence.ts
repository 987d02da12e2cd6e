// Saving event queues across a graceful restart: one JSON row per queue.
import type { DbOrTx } from '../db/schema.js';
import type { QueueSnapshot } from './queue.js';

/** Rows per INSERT: few statements for thousands of queues, well within either store's parameter limit. */
const ROWS_PER_INSERT = 200;

/** A saved queue; in a cluster, with the number of the last batch of events it had taken. */
export type SavedQueue = QueueSnapshot & { busSeq?: number };

/**
 * Replaces the saved queues with these, all at once: a stop cut short leaves the old set or the new
 * one. `keepOthers`: processes of a cluster stopping together each add their own. `busSeq`: the
 * number of the cluster bus's last batch the queues have taken (see QueueRegistry.start).
 */
export async function saveSnapshots(db: DbOrTx, snapshots: QueueSnapshot[], keepOthers = false, busSeq?: number): Promise<void> {
  const rows = snapshots.map((snapshot) => ({
    queue_id: snapshot.id,
    user_id: snapshot.spec.userId,
    data: JSON.stringify(busSeq === undefined ? snapshot : { ...snapshot, busSeq }),
  }));
  await db.transaction().execute(async (tx) => {
    if (!keepOthers) await tx.deleteFrom('event_queue_snapshot').execute();
    else for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await tx.deleteFrom('event_queue_snapshot').where('queue_id', 'in', rows.slice(i, i + ROWS_PER_INSERT).map((row) => row.queue_id)).execute();
    }
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await tx.insertInto('event_queue_snapshot').values(rows.slice(i, i + ROWS_PER_INSERT)).execute();
    }
  });
}

/** The saved queues, removed from the store as they are read (in one statement: processes starting together share them out). */
export async function loadSnapshots(db: DbOrTx): Promise<SavedQueue[]> {
  const rows = await db.deleteFrom('event_queue_snapshot').returning(['data']).execute();
  return rows.map((row) => JSON.parse(row.data) as SavedQueue);
}
