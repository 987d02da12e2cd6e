// Pending email address changes (confirmed through a link), and each realm's settings for new users.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('email_change_request'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('old_email', 'text', (c) => c.notNull())
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('confirmation_key', 'text', (c) => c.notNull())
    .addColumn('date_sent', bigint, (c) => c.notNull())
    // 0 pending, 1 confirmed, 2 replaced by a newer request.
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE UNIQUE INDEX email_change_request_key ON email_change_request (confirmation_key)`.execute(db);
  await sql`CREATE INDEX email_change_request_user ON email_change_request (user_id)`.execute(db);

  await db.schema
    .createTable('realm_user_default')
    .addColumn('realm_id', 'integer', (c) => c.primaryKey())
    // JSON object of the settings that differ from the registry's defaults.
    .addColumn('settings', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('realm_user_default').ifExists().execute();
  await db.schema.dropTable('email_change_request').ifExists().execute();
}
