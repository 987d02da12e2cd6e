// Reading uploads: a user's attachments with the messages that link them, the organization's
// used space, and whether a user may read a given file.
import { type AttachmentRow, type DbOrTx, RecipientType, type UserRow } from '../db/schema.js';
import { InvalidMessageError } from '../errors.js';
import { accessMessage } from './messages.js';

export interface AttachmentDict {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  messages: Array<{ id: number; date_sent: number }>;
}

export async function linkedMessages(db: DbOrTx, attachmentIds: number[]): Promise<Map<number, Array<{ id: number; date_sent: number }>>> {
  const byAttachment = new Map<number, Array<{ id: number; date_sent: number }>>();
  if (attachmentIds.length === 0) return byAttachment;
  const rows = await db
    .selectFrom('attachment_message')
    .innerJoin('message', 'message.id', 'attachment_message.message_id')
    .select(['attachment_message.attachment_id', 'message.id', 'message.date_sent'])
    .where('attachment_message.attachment_id', 'in', attachmentIds)
    .orderBy('message.id')
    .execute();
  for (const row of rows) {
    const list = byAttachment.get(row.attachment_id) ?? [];
    list.push({ id: row.id, date_sent: row.date_sent * 1000 });
    byAttachment.set(row.attachment_id, list);
  }
  return byAttachment;
}

function dictOf(row: AttachmentRow, messages: Array<{ id: number; date_sent: number }>): AttachmentDict {
  return { id: row.id, name: row.file_name, path_id: row.path_id, size: row.size, create_time: row.create_time, messages };
}

export async function attachmentDict(db: DbOrTx, row: AttachmentRow): Promise<AttachmentDict> {
  return dictOf(row, (await linkedMessages(db, [row.id])).get(row.id) ?? []);
}

export async function userAttachments(db: DbOrTx, userId: number): Promise<AttachmentDict[]> {
  const rows = await db.selectFrom('attachment').selectAll().where('owner_id', '=', userId).orderBy('id').execute();
  const messages = await linkedMessages(db, rows.map((r) => r.id));
  return rows.map((row) => dictOf(row, messages.get(row.id) ?? []));
}

/** The total size of the organization's uploads, in bytes. */
export async function uploadSpaceUsed(db: DbOrTx, realmId: number): Promise<number> {
  const row = await db
    .selectFrom('attachment')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('used'))
    .where('realm_id', '=', realmId)
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

export function attachmentByPath(db: DbOrTx, realmId: number, pathId: string): Promise<AttachmentRow | undefined> {
  return db.selectFrom('attachment').selectAll().where('realm_id', '=', realmId).where('path_id', '=', pathId).executeTakeFirst();
}

export function attachmentById(db: DbOrTx, id: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom('attachment').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Whether the viewer may read the file: its uploader may, and so may anyone who can read a message
 * that links it now (where it is now, with the stream's history rules), as fetching that message would.
 */
export async function canReadAttachment(db: DbOrTx, viewer: UserRow, attachment: AttachmentRow): Promise<boolean> {
  if (attachment.realm_id !== viewer.realm_id) return false;
  if (attachment.owner_id === viewer.id) return true;
  const links = await db.selectFrom('attachment_message').select('message_id').where('attachment_id', '=', attachment.id).execute();
  for (const { message_id } of links) {
    try {
      await accessMessage(db, viewer, message_id);
      return true;
    } catch (error) {
      // Not this message; perhaps another one.
      if (!(error instanceof InvalidMessageError)) throw error;
    }
  }
  return false;
}

/**
 * Whether spectators may read the file: a message in one of its organization's web-public streams
 * links it now (the caller checks that the organization lets spectators in).
 */
export async function isWebPublicAttachment(db: DbOrTx, attachment: AttachmentRow): Promise<boolean> {
  const row = await db
    .selectFrom('attachment_message')
    .innerJoin('message', 'message.id', 'attachment_message.message_id')
    .innerJoin('recipient', 'recipient.id', 'message.recipient_id')
    .innerJoin('stream', 'stream.id', 'recipient.type_id')
    .select('message.id')
    .where('attachment_message.attachment_id', '=', attachment.id)
    .where('recipient.type', '=', RecipientType.STREAM)
    .where('stream.realm_id', '=', attachment.realm_id)
    .where('stream.is_web_public', '=', 1)
    .where('stream.invite_only', '=', 0)
    .where('stream.deactivated', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
