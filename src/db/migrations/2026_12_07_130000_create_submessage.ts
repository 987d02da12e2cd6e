// Submessages: the data of interactive messages (a poll's definition, its votes, a todo list's
// tasks), read with their message and deleted with it.
import type { Kysely } from 'kysely';
import { dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('submessage'), dialectOf(db))
    .addColumn('message_id', 'integer', (c) => c.notNull())
    .addColumn('sender_id', 'integer', (c) => c.notNull())
    .addColumn('msg_type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  // Messages are fetched by the page, so their submessages are read by message id, in id order.
  await sql`CREATE INDEX submessage_message ON submessage (message_id, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('submessage').ifExists().execute();
}
