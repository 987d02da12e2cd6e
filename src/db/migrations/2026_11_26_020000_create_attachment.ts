// Uploaded files (attachment) and the messages that link them (attachment_message). A file's
// bytes live in file storage under path_id; secret signs its short-lived download URLs.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('attachment'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('path_id', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', bigint, (c) => c.notNull())
    .addColumn('create_time', bigint, (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX attachment_path_id ON attachment (path_id)`.execute(db);
  await sql`CREATE INDEX attachment_owner ON attachment (owner_id)`.execute(db);
  await sql`CREATE INDEX attachment_realm ON attachment (realm_id)`.execute(db);
  await db.schema
    .createTable('attachment_message')
    .addColumn('attachment_id', 'integer', (c) => c.notNull())
    .addColumn('message_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('attachment_message_pk', ['attachment_id', 'message_id'])
    .execute();
  await sql`CREATE INDEX attachment_message_message ON attachment_message (message_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attachment_message').ifExists().execute();
  await db.schema.dropTable('attachment').ifExists().execute();
}
