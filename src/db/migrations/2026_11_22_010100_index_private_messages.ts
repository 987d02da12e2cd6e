// Direct-message narrows (is:dm, dm, dm-including) read only the viewer's private rows.
import type { Kysely } from 'kysely';
import { sql } from '../migration-helpers.js';

/** The is_private bit of user_message.flags. */
const IS_PRIVATE = 2048;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX user_message_private ON user_message (user_id, message_id)
    WHERE (flags & ${sql.lit(IS_PRIVATE)}) <> 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS user_message_private`.execute(db);
}
