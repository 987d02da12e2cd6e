// Attachments: the record of an upload, its links to the messages that mention it (kept in step
// on send, edit and delete), removal by its owner, and the sweep of files no message links.
import { randomBytes } from 'node:crypto';
import type { AttachmentRow, DbOrTx, MessageRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { linkedUploadPaths } from '../lib/uploads.js';
import { attachmentDict, canReadAttachment, uploadSpaceUsed } from '../queries/attachments.js';
import { storageOf } from '../adapters/storage/services.js';
import type { ImageFacts } from '../lib/thumbnails.js';
import type { Services } from '../services.js';
import type { ActionContext, SystemContext } from './context.js';
import { deleteThumbnails } from './thumbnails.js';

export interface NewAttachment {
  fileName: string;
  pathId: string;
  contentType: string;
  size: number;
  /** Set for an image messages may preview (see lib/thumbnails.ts probeImage). */
  image?: ImageFacts | null;
}

async function announce(ctx: SystemContext, op: 'add' | 'update', row: AttachmentRow): Promise<void> {
  const event = { type: 'attachment', op, attachment: await attachmentDict(ctx.tx, row), upload_space_used: await uploadSpaceUsed(ctx.tx, row.realm_id) };
  ctx.events.send(event, [row.owner_id]);
}

/** Refuses a file that would take the organization past its upload quota (none when it is 0). */
export async function checkUploadQuota(services: Services, db: DbOrTx, realmId: number, size: number): Promise<void> {
  const quota = services.config.uploadQuotaMib * 1024 * 1024;
  if (quota > 0 && (await uploadSpaceUsed(db, realmId)) + size > quota) {
    throw new ApiError("Upload would exceed your organization's upload quota.", { code: 'REALM_UPLOAD_QUOTA' });
  }
}

/**
 * The quota check that counts, in the transaction that records the upload. On PostgreSQL the
 * realm's row is locked first, so concurrent uploads take turns: each sums the space used once
 * the one before has committed (a statement under READ COMMITTED sees what committed before it
 * began). SQLite runs one action at a time anyway.
 */
async function reserveUploadSpace(ctx: ActionContext, size: number): Promise<void> {
  if (ctx.services.config.uploadQuotaMib <= 0) return;
  if (ctx.services.store.kind === 'postgres') {
    await ctx.tx.selectFrom('realm').select('id').where('id', '=', ctx.realm.id).forUpdate().execute();
  }
  await checkUploadQuota(ctx.services, ctx.tx, ctx.realm.id, size);
}

/** Records a file already in storage as the actor's upload, within the organization's quota. */
export async function doCreateAttachment(ctx: ActionContext, file: NewAttachment): Promise<AttachmentRow> {
  await reserveUploadSpace(ctx, file.size);
  const row = await ctx.tx
    .insertInto('attachment')
    .values({
      realm_id: ctx.realm.id,
      owner_id: ctx.actor.id,
      file_name: file.fileName,
      path_id: file.pathId,
      content_type: file.contentType,
      size: file.size,
      create_time: ctx.now * 1000,
      secret: randomBytes(24).toString('hex'),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (file.image) {
    await ctx.tx.insertInto('image_attachment').values({ attachment_id: row.id, width: file.image.width, height: file.image.height, frames: file.image.frames }).execute();
  }
  await announce(ctx, 'add', row);
  return row;
}

/**
 * Links a message to the uploads its rendered content points at, and unlinks those it no longer
 * does. A sender links a file they uploaded or one they can already read; other paths are ignored,
 * so a message cannot open someone else's file to its readers. Returns whether any file is linked.
 */
export async function syncMessageAttachments(ctx: SystemContext, message: Pick<MessageRow, 'id' | 'realm_id'>, sender: UserRow, renderedHtml: string): Promise<boolean> {
  const paths = linkedUploadPaths(renderedHtml).filter((p) => p.startsWith(`${message.realm_id}/`));
  const wanted = paths.length === 0 ? [] : await ctx.tx.selectFrom('attachment').selectAll().where('realm_id', '=', message.realm_id).where('path_id', 'in', paths).execute();
  const allowed: AttachmentRow[] = [];
  for (const row of wanted) if (row.owner_id === sender.id || (await canReadAttachment(ctx.tx, sender, row))) allowed.push(row);
  const current = await ctx.tx.selectFrom('attachment_message').select('attachment_id').where('message_id', '=', message.id).execute();
  const have = new Set(current.map((r) => r.attachment_id));
  const keep = new Set(allowed.map((r) => r.id));
  const added = allowed.filter((r) => !have.has(r.id));
  const removed = [...have].filter((id) => !keep.has(id));
  if (added.length > 0) {
    await ctx.tx.insertInto('attachment_message').values(added.map((r) => ({ attachment_id: r.id, message_id: message.id }))).execute();
  }
  if (removed.length > 0) {
    await ctx.tx.deleteFrom('attachment_message').where('message_id', '=', message.id).where('attachment_id', 'in', removed).execute();
  }
  const changed = [...added.map((r) => r.id), ...removed];
  if (changed.length > 0) {
    const rows = await ctx.tx.selectFrom('attachment').selectAll().where('id', 'in', changed).execute();
    for (const row of rows) await announce(ctx, 'update', row);
  }
  return keep.size > 0;
}

/** Before messages are deleted: their links go, and the files' owners hear of it. Files stay until the sweep. */
export async function unlinkDeletedMessages(ctx: SystemContext, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  const links = await ctx.tx.selectFrom('attachment_message').select('attachment_id').distinct().where('message_id', 'in', messageIds).execute();
  if (links.length === 0) return;
  await ctx.tx.deleteFrom('attachment_message').where('message_id', 'in', messageIds).execute();
  const rows = await ctx.tx.selectFrom('attachment').selectAll().where('id', 'in', links.map((l) => l.attachment_id)).execute();
  for (const row of rows) await announce(ctx, 'update', row);
}

/** Deletes records; their files leave storage once the transaction has committed. */
async function deleteAttachments(ctx: SystemContext, rows: AttachmentRow[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  const images = new Map((await ctx.tx.selectFrom('image_attachment').selectAll().where('attachment_id', 'in', ids).execute()).map((i) => [i.attachment_id, i]));
  await ctx.tx.deleteFrom('image_attachment').where('attachment_id', 'in', ids).execute();
  await ctx.tx.deleteFrom('attachment_message').where('attachment_id', 'in', ids).execute();
  await ctx.tx.deleteFrom('attachment').where('id', 'in', ids).execute();
  for (const row of rows) {
    ctx.events.send({ type: 'attachment', op: 'remove', attachment: { id: row.id }, upload_space_used: await uploadSpaceUsed(ctx.tx, row.realm_id) }, [row.owner_id]);
  }
  const storage = storageOf(ctx.services);
  ctx.events.afterCommit(() => {
    for (const row of rows) {
      const image = images.get(row.id);
      const removal = image ? storage.delete(row.path_id).then(() => deleteThumbnails(ctx.services, row.path_id, image)) : storage.delete(row.path_id);
      removal.catch((error: unknown) => ctx.services.log?.warn({ err: error, path: row.path_id }, 'could not delete an uploaded file'));
    }
  });
}

/** DELETE /attachments/{id}: only the owner's own uploads. */
export async function checkRemoveAttachment(ctx: ActionContext, attachmentId: number): Promise<void> {
  const row = await ctx.tx.selectFrom('attachment').selectAll().where('id', '=', attachmentId).where('owner_id', '=', ctx.actor.id).executeTakeFirst();
  if (!row) throw new ApiError('Invalid attachment');
  await deleteAttachments(ctx, [row]);
}

/** The periodic sweep: uploads that no message links and that are older than maxAgeSeconds. */
export async function removeUnclaimedAttachments(ctx: SystemContext, maxAgeSeconds: number): Promise<number> {
  const rows = await ctx.tx
    .selectFrom('attachment')
    .selectAll()
    .where('create_time', '<', (ctx.now - maxAgeSeconds) * 1000)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('attachment_message').select('message_id').whereRef('attachment_message.attachment_id', '=', 'attachment.id'))))
    .limit(1000)
    .execute();
  await deleteAttachments(ctx, rows);
  return rows.length;
}
