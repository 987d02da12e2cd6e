// Custom profile fields an organization defines, and each user's value for them. Values go
// with their field: the action that deletes a field deletes its values in the same transaction.
import type { Kysely } from 'kysely';
import { dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await withId(db.schema.createTable('custom_profile_field'), dialect)
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('hint', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('field_type', 'integer', (c) => c.notNull())
    .addColumn('field_data', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('display_in_profile_summary', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE UNIQUE INDEX custom_profile_field_realm_name ON custom_profile_field (realm_id, name)`.execute(db);
  await withId(db.schema.createTable('custom_profile_field_value'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('field_id', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('rendered_value', 'text')
    .execute();
  await sql`CREATE UNIQUE INDEX custom_profile_field_value_user_field ON custom_profile_field_value (user_id, field_id)`.execute(db);
  await sql`CREATE INDEX custom_profile_field_value_field ON custom_profile_field_value (field_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('custom_profile_field_value').ifExists().execute();
  await db.schema.dropTable('custom_profile_field').ifExists().execute();
}
