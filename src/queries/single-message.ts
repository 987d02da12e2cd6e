// GET /messages/{message_id}: the message dictionary and its raw content.
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { messageDicts } from './message-dicts.js';
import { accessMessage } from './messages.js';

export async function getSingleMessage(
  db: DbOrTx,
  viewer: UserRow,
  realm: RealmRow,
  messageId: number,
  options: { applyMarkdown: boolean },
) {
  const { message, flags } = await accessMessage(db, viewer, messageId);
  const [dict] = await messageDicts(db, viewer, [{ id: message.id, flags }], {
    applyMarkdown: options.applyMarkdown,
    clientGravatar: false,
    realm,
  });
  return { raw_content: message.content, message: dict };
}
