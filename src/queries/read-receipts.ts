// GET /messages/{message_id}/read_receipts: who has read a message, as far as the viewer may know.
import { sql } from 'kysely';
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import { realmSettings } from '../lib/realm-settings.js';
import { resolveSettings } from '../lib/settings-registry.js';
import { accessMessage } from './messages.js';

/**
 * Active users (bots included) who have the message marked read and share read receipts; never
 * the sender, nor anyone the viewer muted or who muted the viewer. The viewer appears when they
 * have read it. Ascending ids.
 */
export async function readReceipts(db: DbOrTx, viewer: UserRow, realm: RealmRow, messageId: number): Promise<number[]> {
  const { message } = await accessMessage(db, viewer, messageId);
  if (!realmSettings(realm).enable_read_receipts) throw new ApiError('Read receipts are disabled in this organization.');
  const read = FLAG_BITS.read;
  const rows = await db
    .selectFrom('user_message as um')
    .innerJoin('user_profile as u', 'u.id', 'um.user_id')
    .select(['u.id', 'u.settings'])
    .where('um.message_id', '=', message.id)
    .where(sql`(um.flags & ${sql.lit(read)})`, '<>', 0)
    .where('u.is_active', '=', 1)
    .where('u.id', '<>', message.sender_id)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('muted_user as mu')
            .select('mu.id')
            .where((eb) =>
              eb.or([
                eb.and([eb('mu.user_id', '=', eb.ref('u.id')), eb('mu.muted_user_id', '=', viewer.id)]),
                eb.and([eb('mu.user_id', '=', viewer.id), eb('mu.muted_user_id', '=', eb.ref('u.id'))]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('u.id')
    .execute();
  return rows.filter((row) => resolveSettings(row.settings).send_read_receipts !== false).map((row) => row.id);
}
