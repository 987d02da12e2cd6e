// Linkifiers: a realm's ordered list of regular-expression patterns and the URLs they link to.
import type { Kysely } from 'kysely';
import { dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('realm_filter'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addColumn('url_template', 'text', (c) => c.notNull())
    // Position in the realm's list; new linkifiers go last.
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // One linkifier per pattern in a realm.
  await sql`CREATE UNIQUE INDEX realm_filter_realm_pattern ON realm_filter (realm_id, pattern)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('realm_filter').ifExists().execute();
}
