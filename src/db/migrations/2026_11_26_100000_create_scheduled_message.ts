// Messages a user has asked to be sent later. A row stays after delivery (delivered, with the id
// of the message it became) so an edit racing the delivery sees that it came too late.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('scheduled_message'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('sender_id', 'integer', (c) => c.notNull())
    .addColumn('recipient_id', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('rendered_content', 'text', (c) => c.notNull())
    .addColumn('sending_client', 'text', (c) => c.notNull())
    .addColumn('scheduled_timestamp', bigint, (c) => c.notNull())
    .addColumn('read_by_sender', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivered_message_id', 'integer')
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failure_message', 'text')
    .execute();
  await sql`CREATE INDEX scheduled_message_sender ON scheduled_message (sender_id, delivered)`.execute(db);
  await sql`CREATE INDEX scheduled_message_due ON scheduled_message (scheduled_timestamp) WHERE delivered = 0 AND failed = 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('scheduled_message').ifExists().execute();
}
