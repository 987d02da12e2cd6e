// Reading single messages with the access rule every message read goes through.
import type { DbOrTx, MessageRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { InvalidMessageError } from '../errors.js';
import { FLAG_BITS } from '../lib/message-flags.js';
import { canReadStreamMessage } from '../lib/permissions.js';
import { MESSAGE_COLUMNS } from './message-dicts.js';
import { isStorableId } from './users.js';

export interface AccessedMessage {
  message: MessageRow;
  /** The viewer's flags; read+historical for stream history the viewer never received. */
  flags: number;
  /** Whether the viewer has a user_message row for it. */
  received: boolean;
}

/**
 * Loads a message the viewer may read, or throws "Invalid message(s)": a direct message the
 * viewer received, or a stream message canReadStreamMessage allows.
 */
export async function accessMessage(db: DbOrTx, viewer: UserRow, messageId: number): Promise<AccessedMessage> {
  // An id past the column's range names no message (and PostgreSQL would refuse the query).
  if (!isStorableId(messageId)) throw new InvalidMessageError();
  const row = await db
    .selectFrom('message')
    .innerJoin('recipient', 'recipient.id', 'message.recipient_id')
    .leftJoin('user_message', (join) =>
      join.onRef('user_message.message_id', '=', 'message.id').on('user_message.user_id', '=', viewer.id),
    )
    .leftJoin('stream', (join) => join.onRef('stream.id', '=', 'recipient.type_id').on('recipient.type', '=', RecipientType.STREAM))
    .leftJoin('subscription', (join) =>
      join
        .onRef('subscription.recipient_id', '=', 'message.recipient_id')
        .on('subscription.user_id', '=', viewer.id)
        .on('subscription.active', '=', 1),
    )
    .select(MESSAGE_COLUMNS.map((c) => `message.${c}` as const))
    .select(['user_message.flags', 'stream.invite_only', 'stream.history_public_to_subscribers', 'stream.is_web_public'])
    .select('subscription.id as subscription_id')
    .where('message.id', '=', messageId)
    .where('message.realm_id', '=', viewer.realm_id)
    .executeTakeFirst();
  if (!row) throw new InvalidMessageError();
  const { flags, invite_only, history_public_to_subscribers, is_web_public, subscription_id, ...message } = row;
  const received = flags !== null;
  if (invite_only === null || history_public_to_subscribers === null || is_web_public === null) {
    if (!received) throw new InvalidMessageError();
    return { message, flags, received };
  }
  const stream = { invite_only, history_public_to_subscribers, is_web_public };
  if (!canReadStreamMessage(viewer, stream, subscription_id !== null, received)) throw new InvalidMessageError();
  return received ? { message, flags, received } : { message, flags: FLAG_BITS.read | FLAG_BITS.historical, received };
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
