// Counters that every change to an organization's user_profile or stream rows, or to the realm
// table, moves on, kept by the store itself: the server may keep those rows in memory for as long
// as their counter stands still, whoever changed them (this server, another process, SQL).
import type { Kysely } from 'kysely';
import { dialectOf, sql } from '../migration-helpers.js';

/**
 * The tables whose rows are counted, each counter named after its table, and the organization a
 * row counts for: the realm table has one counter for the whole list, under organization 0.
 */
const COUNTED: ReadonlyArray<[table: string, realmId: (row: 'NEW' | 'OLD') => string]> = [
  ['user_profile', (row) => `${row}.realm_id`],
  ['stream', (row) => `${row}.realm_id`],
  ['realm', () => '0'],
];

const bump = (table: string, realmId: string) =>
  sql.raw(
    `INSERT INTO realm_version (realm_id, kind, version) VALUES (${realmId}, '${table}', 1)
     ON CONFLICT (realm_id, kind) DO UPDATE SET version = realm_version.version + 1`,
  );

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('realm_version')
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('realm_version_pk', ['realm_id', 'kind'])
    .execute();
  const postgres = dialectOf(db) === 'postgres';
  for (const [table, realmId] of COUNTED) {
    if (postgres) {
      await sql`CREATE FUNCTION ${sql.raw(`bump_${table}_version`)}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN ${bump(table, realmId('OLD'))}; ELSE ${bump(table, realmId('NEW'))}; END IF;
          RETURN NULL;
        END $$`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_version`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.raw(table)}
        FOR EACH ROW EXECUTE FUNCTION ${sql.raw(`bump_${table}_version`)}()`.execute(db);
      continue;
    }
    for (const [operation, row] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_version_${operation.toLowerCase()}`)} AFTER ${sql.raw(operation)} ON ${sql.raw(table)}
        BEGIN ${bump(table, realmId(row))}; END`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  for (const [table] of COUNTED) {
    if (postgres) {
      await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_version`)} ON ${sql.raw(table)}`.execute(db);
      await sql`DROP FUNCTION IF EXISTS ${sql.raw(`bump_${table}_version`)}()`.execute(db);
      continue;
    }
    for (const operation of ['insert', 'update', 'delete']) {
      await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_version_${operation}`)}`.execute(db);
    }
  }
  await db.schema.dropTable('realm_version').ifExists().execute();
}
