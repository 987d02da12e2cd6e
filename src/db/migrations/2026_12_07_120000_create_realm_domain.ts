// The email domains an organization admits for sign-up when emails_restricted_to_domains is on.
import type { Kysely } from 'kysely';
import { dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('realm_domain'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    // Stored lower-cased, as the routes accept it.
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('allow_subdomains', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE UNIQUE INDEX realm_domain_realm_domain ON realm_domain (realm_id, domain)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('realm_domain').ifExists().execute();
}
