// Making and keeping thumbnails of uploaded images. An upload's header is probed before it is
// recorded (cheap, header only); the thumbnails themselves are made after the upload is stored, one
// at a time off the request path, and again on the first request that finds one missing (another
// process's upload, a lost file). Concurrent requests for the same thumbnail share one render.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storageOf } from '../adapters/storage/services.js';
import type { AttachmentRow, DbOrTx, ImageAttachmentRow } from '../db/schema.js';
import { BoundedMap } from '../lib/bounded-map.js';
import { displayedFormat, hasFormat, renderThumbnail, THUMBNAIL_CONTENT_TYPE, THUMBNAIL_FORMATS, type ThumbnailFormat, thumbnailKey } from '../lib/thumbnails.js';
import type { Services } from '../services.js';

interface ThumbnailWork {
  /** Renders under way, by storage key. */
  inFlight: Map<string, Promise<boolean>>;
  /** Keys whose render failed: not tried again by this process (the original is shown instead). */
  failed: BoundedMap<string, true>;
  /** The background queue's tail: renders after uploads run one after another. */
  queue: Promise<void>;
}

const workOf = new WeakMap<Services, ThumbnailWork>();

function work(services: Services): ThumbnailWork {
  let state = workOf.get(services);
  if (!state) {
    state = { inFlight: new Map(), failed: new BoundedMap(10_000), queue: Promise.resolve() };
    workOf.set(services, state);
  }
  return state;
}

export function imageOfAttachment(db: DbOrTx, attachmentId: number): Promise<ImageAttachmentRow | undefined> {
  return db.selectFrom('image_attachment').selectAll().where('attachment_id', '=', attachmentId).executeTakeFirst();
}

async function storeBuffer(services: Services, key: string, data: Buffer): Promise<void> {
  const storage = storageOf(services);
  await mkdir(storage.spoolDir, { recursive: true });
  const path = join(storage.spoolDir, `${randomBytes(12).toString('hex')}.thumb`);
  await writeFile(path, data, { flag: 'wx' });
  try {
    await storage.putFile(key, { path, size: data.length, sha256: createHash('sha256').update(data).digest('hex') }, THUMBNAIL_CONTENT_TYPE);
  } finally {
    await rm(path, { force: true });
  }
}

async function render(services: Services, attachment: AttachmentRow, format: ThumbnailFormat, key: string): Promise<boolean> {
  const storage = storageOf(services);
  let thumbnail: Buffer;
  try {
    if ((await storage.stat(key)) !== null) return true;
    const original = await storage.get(attachment.path_id);
    if (!original) return false;
    try {
      thumbnail = await renderThumbnail(original.body, format);
    } catch (error) {
      original.body.destroy();
      // The image itself is at fault: this process does not try it again.
      work(services).failed.set(key, true);
      throw error;
    }
    await storeBuffer(services, key, thumbnail);
    // The upload may have been deleted while its thumbnail was being made: leave nothing behind.
    const kept = await services.db.selectFrom('attachment').select('id').where('id', '=', attachment.id).executeTakeFirst();
    if (!kept) {
      await storage.delete(key);
      return false;
    }
    return true;
  } catch (error) {
    services.log?.warn({ err: error, path: attachment.path_id, format: format.name }, 'could not make a thumbnail');
    return false;
  }
}

/**
 * Makes sure the thumbnail exists in storage; false when it cannot be made (a corrupt image, a
 * missing original), in which case the original is the image to show.
 */
export function ensureThumbnail(services: Services, attachment: AttachmentRow, format: ThumbnailFormat): Promise<boolean> {
  const state = work(services);
  const key = thumbnailKey(attachment.path_id, format);
  if (state.failed.has(key)) return Promise.resolve(false);
  let pending = state.inFlight.get(key);
  if (!pending) {
    pending = render(services, attachment, format, key).finally(() => state.inFlight.delete(key));
    state.inFlight.set(key, pending);
  }
  return pending;
}

/** After an image upload is stored and recorded: its displayed thumbnail is made in the background. */
export function queueThumbnail(services: Services, attachment: AttachmentRow, image: Pick<ImageAttachmentRow, 'frames'>): void {
  const state = work(services);
  const format = displayedFormat(image);
  state.queue = state.queue.then(async () => {
    await ensureThumbnail(services, attachment, format);
  });
}

/** Resolves once every queued background render has finished (tests, and stopping cleanly). */
export async function thumbnailsIdle(services: Services): Promise<void> {
  const state = workOf.get(services);
  if (!state) return;
  let tail: Promise<void>;
  do {
    tail = state.queue;
    await tail;
    await Promise.all([...state.inFlight.values()]);
  } while (tail !== state.queue);
}

/** Removes an upload's thumbnails from storage (after its record is gone). */
export async function deleteThumbnails(services: Services, pathId: string, image: Pick<ImageAttachmentRow, 'frames'>): Promise<void> {
  const storage = storageOf(services);
  for (const format of THUMBNAIL_FORMATS) if (hasFormat(image, format)) await storage.delete(thumbnailKey(pathId, format));
}
