// Words that flag a message for a user when they occur in it.
import type { Kysely } from 'kysely';
import { dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('alert_word'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('word', 'text', (c) => c.notNull())
    .execute();
  // A word is kept once per user, whatever its case.
  await sql`CREATE UNIQUE INDEX alert_word_user_word ON alert_word (user_id, lower(word))`.execute(db);
  // Sending reads a realm's words at once.
  await sql`CREATE INDEX alert_word_realm ON alert_word (realm_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alert_word').ifExists().execute();
}
