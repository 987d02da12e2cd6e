// Saving event queues across a graceful restart: one JSON row per queue.
import type { DbOrTx } from '../db/schema.js';
import type { QueueSnapshot } from './queue.js';

export async function saveSnapshots(db: DbOrTx, snapshots: QueueSnapshot[]): Promise<void> {
  await db.deleteFrom('event_queue_snapshot').execute();
  for (const snapshot of snapshots) {
    await db
      .insertInto('event_queue_snapshot')
      .values({ queue_id: snapshot.id, user_id: snapshot.spec.userId, data: JSON.stringify(snapshot) })
      .execute();
  }
}

/** The saved queues, removed from the store as they are read. */
export async function loadSnapshots(db: DbOrTx): Promise<QueueSnapshot[]> {
  const rows = await db.selectFrom('event_queue_snapshot').select(['queue_id', 'data']).execute();
  if (rows.length > 0) await db.deleteFrom('event_queue_snapshot').execute();
  return rows.map((row) => JSON.parse(row.data) as QueueSnapshot);
}
