// Custom emoji (realm_emoji) and the organization's own images: its icon, its logo and its logo
// for the dark theme. Deleting an emoji only deactivates it, so messages and reactions that use it
// keep their image. An image's source is the reference's letter ('G' or 'D' for the default, 'U'
// for an upload); its version changes with each upload, so clients fetch the new file.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('realm_emoji'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('still_file_name', 'text')
    .addColumn('deactivated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date_created', bigint, (c) => c.notNull())
    .execute();
  // One active emoji per name; deactivated ones may share it. Two uploads racing for a name: the
  // second insert fails here, and its retried transaction answers that the name is taken.
  await sql`CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (realm_id, name) WHERE deactivated = 0`.execute(db);
  await db.schema.alterTable('realm').addColumn('icon_source', 'text', (c) => c.notNull().defaultTo('G')).execute();
  await db.schema.alterTable('realm').addColumn('icon_version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('realm').addColumn('logo_source', 'text', (c) => c.notNull().defaultTo('D')).execute();
  await db.schema.alterTable('realm').addColumn('logo_version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('realm').addColumn('night_logo_source', 'text', (c) => c.notNull().defaultTo('D')).execute();
  await db.schema.alterTable('realm').addColumn('night_logo_version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['icon_source', 'icon_version', 'logo_source', 'logo_version', 'night_logo_source', 'night_logo_version']) {
    await db.schema.alterTable('realm').dropColumn(column).execute();
  }
  await db.schema.dropTable('realm_emoji').ifExists().execute();
}
