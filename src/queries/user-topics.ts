// Reading a user's per-topic visibility policies.
import { sql } from 'kysely';
import type { DbOrTx, UserTopicRow } from '../db/schema.js';
import { VisibilityPolicy } from '../lib/narrow/types.js';

export interface UserTopicDict {
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}

/** The user_topics list of /register: every policy in an active stream, oldest row first. */
export async function userTopicsOf(db: DbOrTx, userId: number): Promise<UserTopicDict[]> {
  const rows = await db
    .selectFrom('user_topic as ut')
    .innerJoin('stream as s', 's.id', 'ut.stream_id')
    .select(['ut.stream_id', 'ut.topic_name', 'ut.last_updated', 'ut.visibility_policy'])
    .where('ut.user_id', '=', userId)
    .where('s.deactivated', '=', 0)
    .orderBy('ut.id')
    .execute();
  return rows.map((row) => ({ ...row, last_updated: Number(row.last_updated) }));
}

/** The legacy muted_topics list: [stream name, topic, last updated] for each muted topic in an active stream. */
export async function mutedTopicsOf(db: DbOrTx, userId: number): Promise<Array<[string, string, number]>> {
  const rows = await db
    .selectFrom('user_topic as ut')
    .innerJoin('stream as s', 's.id', 'ut.stream_id')
    .select(['s.name', 'ut.topic_name', 'ut.last_updated'])
    .where('ut.user_id', '=', userId)
    .where('ut.visibility_policy', '=', VisibilityPolicy.MUTED)
    .where('s.deactivated', '=', 0)
    .orderBy('ut.id')
    .execute();
  return rows.map((row) => [row.name, row.topic_name, Number(row.last_updated)]);
}

/** The user's row for a topic, matched case-insensitively. */
export function userTopicRow(db: DbOrTx, userId: number, streamId: number, topic: string): Promise<UserTopicRow | undefined> {
  return db
    .selectFrom('user_topic')
    .selectAll()
    .where('user_id', '=', userId)
    .where('stream_id', '=', streamId)
    .where(sql`lower(topic_name)`, '=', sql`lower(${topic})`)
    .executeTakeFirst();
}
