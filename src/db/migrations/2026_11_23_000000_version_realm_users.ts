// A counter per organization that every change to its user_profile rows moves on, kept by the
// store itself: the server may keep an organization's user list in memory for as long as the
// counter stands still, whoever changed the rows (this server, another process, an operator's SQL).
import type { Kysely } from 'kysely';
import { dialectOf, sql } from '../migration-helpers.js';

const BUMP = (realmId: string) => sql.raw(
  `INSERT INTO realm_user_version (realm_id, version) VALUES (${realmId}, 1)
   ON CONFLICT (realm_id) DO UPDATE SET version = realm_user_version.version + 1`,
);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('realm_user_version')
    .addColumn('realm_id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  if (dialectOf(db) === 'postgres') {
    await sql`CREATE FUNCTION bump_realm_user_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN ${BUMP('OLD.realm_id')}; ELSE ${BUMP('NEW.realm_id')}; END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER user_profile_version AFTER INSERT OR UPDATE OR DELETE ON user_profile
      FOR EACH ROW EXECUTE FUNCTION bump_realm_user_version()`.execute(db);
    return;
  }
  for (const [operation, row] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
    await sql`CREATE TRIGGER ${sql.raw(`user_profile_version_${operation.toLowerCase()}`)} AFTER ${sql.raw(operation)} ON user_profile
      BEGIN ${BUMP(`${row}.realm_id`)}; END`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`DROP TRIGGER IF EXISTS user_profile_version ON user_profile`.execute(db);
    await sql`DROP FUNCTION IF EXISTS bump_realm_user_version()`.execute(db);
  } else {
    for (const operation of ['insert', 'update', 'delete']) {
      await sql`DROP TRIGGER IF EXISTS ${sql.raw(`user_profile_version_${operation}`)}`.execute(db);
    }
  }
  await db.schema.dropTable('realm_user_version').ifExists().execute();
}
