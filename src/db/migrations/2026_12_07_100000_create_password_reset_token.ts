// Links mailed to reset a forgotten password. Only a hash of each link's token is kept, so the
// table's contents cannot be used as links; a row goes away when its link is used.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('password_reset_token'), dialectOf(db))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    // UNIX seconds.
    .addColumn('expires', bigint, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX password_reset_token_hash ON password_reset_token (token_hash)`.execute(db);
  await sql`CREATE INDEX password_reset_token_user ON password_reset_token (user_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_reset_token').ifExists().execute();
}
