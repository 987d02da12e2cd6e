// Mobile devices registered for push notifications.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('push_device_token'), dialectOf(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    // 1 APNs (iOS), 2 FCM (Android).
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('ios_app_id', 'text')
    .addColumn('last_updated', bigint, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX push_device_token_user_kind_token ON push_device_token (user_id, kind, token)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_device_token').ifExists().execute();
}
