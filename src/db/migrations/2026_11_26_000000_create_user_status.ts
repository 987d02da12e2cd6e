// What a user has set as their status: a short text and an emoji (the deprecated "away" is the
// user's presence_enabled setting, not stored here). One row per user, once they set anything.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('user_status'), dialectOf(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('status_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('emoji_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('emoji_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reaction_type', 'text', (c) => c.notNull().defaultTo('unicode_emoji'))
    .addColumn('timestamp', bigint, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX user_status_user ON user_status (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_status').ifExists().execute();
}
