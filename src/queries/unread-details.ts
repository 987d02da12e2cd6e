// What a client needs to put messages back into its unread counts: where each message lives,
// whether its stream is muted, and whether it mentions the user.
import type { DbOrTx } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { chunks } from '../lib/limits.js';
import { MENTION_MASK } from '../lib/message-flags.js';

export type UnreadDetail =
  | { type: 'stream'; stream_id: number; topic: string; unmuted_stream_msg: boolean; mentioned?: true }
  | { type: 'private'; user_ids: number[]; mentioned?: true };

export async function unreadDetails(db: DbOrTx, userId: number, messageIds: number[]): Promise<Record<string, UnreadDetail>> {
  const details: Record<string, UnreadDetail> = {};
  for (const part of chunks(messageIds)) addDetails(details, userId, await detailRows(db, userId, part));
  return details;
}

function detailRows(db: DbOrTx, userId: number, messageIds: number[]) {
  return db
    .selectFrom('message as m')
    .innerJoin('recipient as r', 'r.id', 'm.recipient_id')
    .innerJoin('user_message as um', (join) => join.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', userId))
    .leftJoin('subscription as s', (join) => join.onRef('s.recipient_id', '=', 'm.recipient_id').on('s.user_id', '=', userId))
    .leftJoin('direct_message_group as g', (join) =>
      join.onRef('g.id', '=', 'r.type_id').on('r.type', '=', RecipientType.DIRECT_MESSAGE_GROUP),
    )
    .select(['m.id', 'm.sender_id', 'm.subject', 'r.type', 'r.type_id', 'um.flags', 's.is_muted', 'g.huddle_hash'])
    .where('m.id', 'in', messageIds)
    .execute();
}

function addDetails(details: Record<string, UnreadDetail>, userId: number, rows: Awaited<ReturnType<typeof detailRows>>): void {
  for (const row of rows) {
    const mentioned = (row.flags & MENTION_MASK) !== 0 ? { mentioned: true as const } : {};
    if (row.type === RecipientType.STREAM) {
      details[row.id] = { type: 'stream', stream_id: row.type_id, topic: row.subject, unmuted_stream_msg: !row.is_muted, ...mentioned };
      continue;
    }
    const members =
      row.type === RecipientType.DIRECT_MESSAGE_GROUP ? (row.huddle_hash ?? '').split(',').map(Number) : [row.sender_id, row.type_id];
    const others = [...new Set(members)].filter((id) => id !== userId).sort((a, b) => a - b);
    details[row.id] = { type: 'private', user_ids: others, ...mentioned };
  }
}
