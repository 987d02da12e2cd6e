// Drafts a user keeps on the server so that all of their clients share them.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('draft'), dialectOf(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    // null: a draft not yet addressed to anyone.
    .addColumn('recipient_id', 'integer')
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('last_edit_time', bigint, (c) => c.notNull())
    .execute();
  // Drafts are always read per user, newest edit first.
  await sql`CREATE INDEX draft_user_edit_time ON draft (user_id, last_edit_time)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('draft').ifExists().execute();
}
