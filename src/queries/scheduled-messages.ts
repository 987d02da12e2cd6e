// Reading scheduled messages: a user's undelivered ones as API dictionaries, and the ones due.
import type { Store } from '../db/connect.js';
import { prepare } from '../db/prepared.js';
import type { DbOrTx, ScheduledMessageRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { conversationAddressees } from '../lib/conversation-addressees.js';
import { type ScheduledMessageDict, scheduledMessageDict } from '../lib/scheduled-messages.js';

function undeliveredQuery(db: DbOrTx, senderId: number) {
  return db
    .selectFrom('scheduled_message as s')
    .innerJoin('recipient as r', 'r.id', 's.recipient_id')
    .leftJoin('direct_message_group as g', (join) =>
      join.onRef('g.id', '=', 'r.type_id').on('r.type', '=', RecipientType.DIRECT_MESSAGE_GROUP),
    )
    .select([
      's.id',
      's.subject',
      's.content',
      's.rendered_content',
      's.scheduled_timestamp',
      's.failed',
      'r.type as recipient_type',
      'r.type_id as recipient_type_id',
      'g.huddle_hash',
    ])
    .where('s.sender_id', '=', senderId)
    .where('s.delivered', '=', 0);
}

/** The user's undelivered scheduled messages, the soonest first. */
export async function scheduledMessagesOf(db: DbOrTx, senderId: number, ids?: number[]): Promise<ScheduledMessageDict[]> {
  let query = undeliveredQuery(db, senderId);
  if (ids) {
    if (ids.length === 0) return [];
    query = query.where('s.id', 'in', ids);
  }
  const rows = await query.orderBy('s.scheduled_timestamp').orderBy('s.id').execute();
  return rows.map((row) => scheduledMessageDict(row, conversationAddressees(row, senderId)));
}

/** One of the user's own scheduled messages; others' are as absent as missing ones. */
export async function ownScheduledMessage(db: DbOrTx, senderId: number, id: number): Promise<ScheduledMessageRow | undefined> {
  return db.selectFrom('scheduled_message').selectAll().where('id', '=', id).where('sender_id', '=', senderId).executeTakeFirst();
}

/** The next scheduled messages whose time has come, oldest first. */
// The delivery asks every few seconds whether anything is due, and almost always nothing is: a
// compiled query on SQLite's event-loop connection, so an idle server's reader thread can end.
const firstDue = prepare<[number], { id: number }>(1, (db, now) =>
  db.selectFrom('scheduled_message').select('id').where('scheduled_timestamp', '<=', now).where('delivered', '=', 0).where('failed', '=', 0).limit(1),
);

/** Whether any scheduled message is due (an index lookup). */
export async function anyScheduledMessageDue(store: Store, now: number): Promise<boolean> {
  return (await firstDue.allNow(store, now)).length > 0;
}

export async function dueScheduledMessages(db: DbOrTx, now: number, limit: number): Promise<ScheduledMessageRow[]> {
  return db
    .selectFrom('scheduled_message')
    .selectAll()
    .where('scheduled_timestamp', '<=', now)
    .where('delivered', '=', 0)
    .where('failed', '=', 0)
    .orderBy('scheduled_timestamp')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The addressees of a stored scheduled message, as its sender would name them to send it now. */
export async function scheduledAddressees(db: DbOrTx, row: Pick<ScheduledMessageRow, 'recipient_id' | 'sender_id'>) {
  const recipient = await db
    .selectFrom('recipient as r')
    .leftJoin('direct_message_group as g', (join) =>
      join.onRef('g.id', '=', 'r.type_id').on('r.type', '=', RecipientType.DIRECT_MESSAGE_GROUP),
    )
    .select(['r.type as recipient_type', 'r.type_id as recipient_type_id', 'g.huddle_hash'])
    .where('r.id', '=', row.recipient_id)
    .executeTakeFirstOrThrow();
  return conversationAddressees(recipient, row.sender_id);
}
