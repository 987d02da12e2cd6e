// Reading a user's drafts as API dictionaries.
import type { DbOrTx } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { conversationAddressees } from '../lib/conversation-addressees.js';
import type { DraftDict } from '../lib/drafts.js';

interface DraftJoinRow {
  id: number;
  user_id: number;
  topic: string;
  content: string;
  last_edit_time: number;
  recipient_type: number | null;
  recipient_type_id: number | null;
  huddle_hash: string | null;
}

/** The draft's addressees as the API names them: the stream, or the other people of the conversation. */
function draftDict(row: DraftJoinRow): DraftDict {
  return { id: row.id, ...conversationAddressees(row, row.user_id), topic: row.topic, content: row.content, timestamp: Number(row.last_edit_time) };
}

function draftQuery(db: DbOrTx, userId: number) {
  return db
    .selectFrom('draft as d')
    .leftJoin('recipient as r', 'r.id', 'd.recipient_id')
    .leftJoin('direct_message_group as g', (join) =>
      join.onRef('g.id', '=', 'r.type_id').on('r.type', '=', RecipientType.DIRECT_MESSAGE_GROUP),
    )
    .select([
      'd.id',
      'd.user_id',
      'd.topic',
      'd.content',
      'd.last_edit_time',
      'r.type as recipient_type',
      'r.type_id as recipient_type_id',
      'g.huddle_hash',
    ])
    .where('d.user_id', '=', userId);
}

/** Every draft of the user, in no particular order (callers sort). */
export async function draftsOf(db: DbOrTx, userId: number): Promise<DraftDict[]> {
  return (await draftQuery(db, userId).execute()).map(draftDict);
}

/** Some of the user's drafts, by id; others' drafts are never returned. */
export async function draftsByIds(db: DbOrTx, userId: number, ids: number[]): Promise<DraftDict[]> {
  if (ids.length === 0) return [];
  return (await draftQuery(db, userId).where('d.id', 'in', ids).execute()).map(draftDict);
}

/** Whether the user has a draft with this id. */
export async function ownsDraft(db: DbOrTx, userId: number, draftId: number): Promise<boolean> {
  const row = await db.selectFrom('draft').select('id').where('id', '=', draftId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
