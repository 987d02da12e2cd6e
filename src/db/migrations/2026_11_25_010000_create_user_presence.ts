// One presence row per user: when they were last active and last connected (idle counts).
import type { Kysely } from 'kysely';
import { bigint, sql } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_presence')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    // Null until the user is first active (a client that only ever reported idle).
    .addColumn('last_active_time', bigint)
    .addColumn('last_connected_time', bigint, (c) => c.notNull())
    .execute();
  // The realm-wide read keeps only rows connected in the last two weeks.
  await sql`CREATE INDEX user_presence_realm ON user_presence (realm_id, last_connected_time)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_presence').ifExists().execute();
}
