// What bot accounts carry beyond a user row: the streams they send to and register for by
// default, the outgoing-webhook service they call, and the key-value store the bots framework
// keeps its state in.
import type { Kysely } from 'kysely';
import { dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_profile').addColumn('default_sending_stream_id', 'integer').execute();
  await db.schema.alterTable('user_profile').addColumn('default_events_register_stream_id', 'integer').execute();
  await db.schema
    .alterTable('user_profile')
    .addColumn('default_all_public_streams', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db.schema.createTable('bot_service'), dialectOf(db))
    .addColumn('bot_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text', (c) => c.notNull())
    // 1 generic (Zulip's own payload), 2 Slack-compatible.
    .addColumn('interface', 'integer', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX bot_service_bot ON bot_service (bot_id)`.execute(db);

  await withId(db.schema.createTable('bot_storage_data'), dialectOf(db))
    .addColumn('bot_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX bot_storage_data_bot_key ON bot_storage_data (bot_id, key)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bot_storage_data').ifExists().execute();
  await db.schema.dropTable('bot_service').ifExists().execute();
  await db.schema.alterTable('user_profile').dropColumn('default_all_public_streams').execute();
  await db.schema.alterTable('user_profile').dropColumn('default_events_register_stream_id').execute();
  await db.schema.alterTable('user_profile').dropColumn('default_sending_stream_id').execute();
}
