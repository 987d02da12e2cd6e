// Reading single messages with the access rule every message read goes through.
import type { DbOrTx, MessageRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { InvalidMessageError } from '../errors.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import { canAccessStreamHistory } from '../lib/permissions.js';
import { MESSAGE_COLUMNS } from './message-dicts.js';
import { isSubscribed } from './streams.js';

export interface AccessedMessage {
  message: MessageRow;
  /** The viewer's flags; read+historical for stream history the viewer never received. */
  flags: number;
  /** Whether the viewer has a user_message row for it. */
  received: boolean;
}

/**
 * Loads a message the viewer may read, or throws "Invalid message(s)": a message the viewer
 * received, or a stream message whose history the viewer may read.
 */
export async function accessMessage(db: DbOrTx, viewer: UserRow, messageId: number): Promise<AccessedMessage> {
  const row = await db
    .selectFrom('message')
    .leftJoin('user_message', (join) =>
      join.onRef('user_message.message_id', '=', 'message.id').on('user_message.user_id', '=', viewer.id),
    )
    .select(MESSAGE_COLUMNS.map((c) => `message.${c}` as const))
    .select('user_message.flags')
    .where('message.id', '=', messageId)
    .where('message.realm_id', '=', viewer.realm_id)
    .executeTakeFirst();
  if (!row) throw new InvalidMessageError();
  const { flags, ...message } = row;
  if (flags !== null) return { message, flags, received: true };
  const stream = await db
    .selectFrom('recipient')
    .innerJoin('stream', 'stream.id', 'recipient.type_id')
    .select(['stream.invite_only', 'stream.history_public_to_subscribers', 'stream.is_web_public'])
    .where('recipient.id', '=', message.recipient_id)
    .where('recipient.type', '=', RecipientType.STREAM)
    .executeTakeFirst();
  if (!stream) throw new InvalidMessageError();
  const subscribed = await isSubscribed(db, viewer.id, message.recipient_id);
  if (!canAccessStreamHistory(viewer, stream, subscribed)) throw new InvalidMessageError();
  return { message, flags: FLAG_BITS.read | FLAG_BITS.historical, received: false };
}

/** Everyone holding a user_message row for one of the messages. */
export async function messageRecipientIds(db: DbOrTx, messageIds: number[]): Promise<number[]> {
  if (messageIds.length === 0) return [];
  const rows = await db
    .selectFrom('user_message')
    .select('user_id')
    .distinct()
    .where('message_id', 'in', messageIds)
    .execute();
  return rows.map((r) => r.user_id);
}
