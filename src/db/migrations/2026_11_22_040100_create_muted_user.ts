// Users a user has muted: their messages arrive already read.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('muted_user'), dialectOf(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('muted_user_id', 'integer', (c) => c.notNull())
    .addColumn('date_muted', bigint, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX muted_user_pair ON muted_user (user_id, muted_user_id)`.execute(db);
  // Sending looks up who muted the sender.
  await sql`CREATE INDEX muted_user_muted ON muted_user (muted_user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('muted_user').ifExists().execute();
}
