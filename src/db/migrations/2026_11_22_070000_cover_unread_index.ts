// POST /register reads every unread row of the user: with the flags in the unread index it needs
// no table lookups, and direct-message groups are found by recipient without a temporary index.
import type { Kysely } from 'kysely';
import { sql } from '../migration-helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX user_message_unread`.execute(db);
  await sql`CREATE INDEX user_message_unread ON user_message (user_id, message_id, flags) WHERE (flags & 1) = 0`.execute(db);
  await db.schema.createIndex('direct_message_group_recipient').on('direct_message_group').column('recipient_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS direct_message_group_recipient`.execute(db);
  await sql`DROP INDEX user_message_unread`.execute(db);
  await sql`CREATE INDEX user_message_unread ON user_message (user_id, message_id) WHERE (flags & 1) = 0`.execute(db);
}
