// Browser sessions: the web client logs in once and then calls /json/... with a cookie. Only a
// hash of each session's token is kept, so the table's contents cannot be replayed as cookies.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('user_session'), dialectOf(db))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('auth_stamp', 'text', (c) => c.notNull())
    .addColumn('expires', bigint, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX user_session_token ON user_session (token_hash)`.execute(db);
  await sql`CREATE INDEX user_session_user ON user_session (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_session').ifExists().execute();
}
