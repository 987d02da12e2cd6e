// Reusable invitation links (multiuse_invite): whoever follows one before it expires or is revoked
// may create an account, with the role and streams the link carries (multiuse_invite_stream).
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('multiuse_invite'), dialectOf(db))
    .addColumn('realm_id', 'integer', (c) => c.notNull())
    .addColumn('referred_by_id', 'integer', (c) => c.notNull())
    .addColumn('invited_as', 'integer', (c) => c.notNull())
    .addColumn('confirmation_key', 'text', (c) => c.notNull())
    .addColumn('date_sent', bigint, (c) => c.notNull())
    // UNIX seconds; null never expires.
    .addColumn('expiry_date', bigint)
    // 0 usable, 1 revoked.
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE UNIQUE INDEX multiuse_invite_key ON multiuse_invite (confirmation_key)`.execute(db);
  await sql`CREATE INDEX multiuse_invite_realm ON multiuse_invite (realm_id, referred_by_id)`.execute(db);

  await db.schema
    .createTable('multiuse_invite_stream')
    .addColumn('invite_id', 'integer', (c) => c.notNull())
    .addColumn('stream_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('multiuse_invite_stream_pk', ['invite_id', 'stream_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('multiuse_invite_stream').ifExists().execute();
  await db.schema.dropTable('multiuse_invite').ifExists().execute();
}
