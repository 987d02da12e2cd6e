// Per-user topic visibility: muted, unmuted or followed topics.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('user_topic'), dialectOf(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('stream_id', 'integer', (c) => c.notNull())
    .addColumn('recipient_id', 'integer', (c) => c.notNull())
    .addColumn('topic_name', 'text', (c) => c.notNull())
    .addColumn('last_updated', bigint, (c) => c.notNull())
    // 1 muted, 2 unmuted, 3 followed; "inherit" is the absence of a row.
    .addColumn('visibility_policy', 'integer', (c) => c.notNull())
    .execute();
  // Topics match case-insensitively: one row per user, stream and folded topic.
  await sql`CREATE UNIQUE INDEX user_topic_user_stream_topic ON user_topic (user_id, stream_id, lower(topic_name))`.execute(db);
  // Narrow filters look topics up from a message's recipient.
  await sql`CREATE INDEX user_topic_user_recipient_topic ON user_topic (user_id, recipient_id, lower(topic_name))`.execute(db);
  // Who has a policy for one topic (notifications, topic moves).
  await sql`CREATE INDEX user_topic_stream_topic ON user_topic (stream_id, lower(topic_name))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_topic').ifExists().execute();
}
