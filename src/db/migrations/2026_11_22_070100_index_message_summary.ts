// The columns POST /register's unread summary reads from each message, in an index small
// enough to stay in memory, so the summary does not read whole message rows.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('message_unread_summary')
    .on('message')
    .columns(['id', 'recipient_id', 'sender_id', 'subject'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('message_unread_summary').ifExists().execute();
}
