// Setting and deleting avatars: the images in file storage, and the change of avatar fields.
// Images are stored under avatars/{realm_id}/{user_id}.png and -medium.png (apart from message
// uploads, whose keys start with the realm id). An upload is stored before the change commits, and
// a delete removes the images after it commits, so the row never points at images not yet there.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storageOf } from '../adapters/storage/services.js';
import type { FileStorage, SpooledFile } from '../adapters/storage/types.js';
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { type AvatarImages, avatarImages } from '../lib/images.js';
import type { Services } from '../services.js';
import { checkAvatarChangeAllowed, doChangeAvatarFields } from './avatar.js';
import { runAction } from './context.js';

/** The storage key of a user's uploaded avatar image. */
export function avatarKey(realmId: number, userId: number, medium = false): string {
  return `avatars/${realmId}/${userId}${medium ? '-medium' : ''}.png`;
}

async function spoolBuffer(dir: string, data: Buffer): Promise<SpooledFile> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomBytes(12).toString('hex')}.avatar`);
  await writeFile(path, data, { flag: 'wx' });
  return { path, size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

async function putImage(storage: FileStorage, key: string, data: Buffer): Promise<void> {
  const file = await spoolBuffer(storage.spoolDir, data);
  try {
    await storage.putFile(key, file, 'image/png');
  } finally {
    await rm(file.path, { force: true });
  }
}

export interface AvatarUpload {
  /** The spooled upload, no larger than the avatar limit (a larger one is refused as it arrives). */
  file: SpooledFile;
  /** Its first bytes. */
  head: Buffer;
}

/** Puts a user's (or a bot's) avatar images in file storage, before the row points at them. */
export async function storeAvatarImages(services: Services, realmId: number, userId: number, images: AvatarImages): Promise<void> {
  const storage = storageOf(services);
  await putImage(storage, avatarKey(realmId, userId), images.normal);
  await putImage(storage, avatarKey(realmId, userId, true), images.medium);
}

/**
 * POST /users/me/avatar after the request's one file is spooled: there is one, the organization's
 * rule, then the images; returns the user as now stored.
 */
export async function setAvatarFromUpload(services: Services, user: UserRow, realm: RealmRow, upload: AvatarUpload | null): Promise<UserRow> {
  if (!upload) throw new ApiError('You must upload exactly one avatar.');
  checkAvatarChangeAllowed(user, realm);
  const images = await avatarImages(upload.file.path, upload.head);
  await storeAvatarImages(services, realm.id, user.id, images);
  return runAction(services, user, realm, (ctx) => doChangeAvatarFields(ctx, realm, user, 'U'));
}

/** DELETE /users/me/avatar: back to the default avatar, and the uploaded images gone. */
export async function deleteAvatar(services: Services, user: UserRow, realm: RealmRow): Promise<UserRow> {
  checkAvatarChangeAllowed(user, realm);
  const updated = await runAction(services, user, realm, (ctx) => doChangeAvatarFields(ctx, realm, user, 'G'));
  const storage = storageOf(services);
  const keys = [avatarKey(realm.id, user.id), avatarKey(realm.id, user.id, true)];
  // The change stands either way: images left behind are never served for a 'G' avatar.
  await Promise.all(keys.map((key) => storage.delete(key).catch((error: unknown) => services.log?.warn({ err: error, key }, 'could not delete an avatar image'))));
  return updated;
}
