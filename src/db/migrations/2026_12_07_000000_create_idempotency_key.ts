// Keys of answered sends (the Idempotency-Key header, or the local_id and queue_id pair), so a
// client's retry after a lost answer gets that answer again instead of storing a second message.
// Rows are written in the transaction that stores the message; the unique index is what makes
// two concurrent requests with one key store one message.
import type { Kysely } from 'kysely';
import { bigint, dialectOf, sql, withId } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('idempotency_key'), dialectOf(db))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    // SHA-256 of the key as the client sent it, whatever its length.
    .addColumn('key_hash', 'text', (c) => c.notNull())
    // SHA-256 of the route and parameters, to tell a retry from a different request.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // The JSON answered the first time.
    .addColumn('response', 'text', (c) => c.notNull())
    // UNIX seconds.
    .addColumn('expires', bigint, (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX idempotency_key_user_key ON idempotency_key (user_id, key_hash)`.execute(db);
  await sql`CREATE INDEX idempotency_key_expires ON idempotency_key (expires)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_key').ifExists().execute();
}
