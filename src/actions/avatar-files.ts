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
import { type AvatarImages, avatarImages, MAX_AVATAR_FILE_SIZE_MIB } from '../lib/images.js';
import type { Services } from '../services.js';
import { checkAvatarChangeAllowed, doChangeAvatarFields } from './avatar.js';
import { runAction } from './context.js';

/** The storage key of a user's uploaded avatar image. */
export function avatarKey(realmId: number, userId: number, medium = false): string {
  return `avatars/${realmId}/${userId}${medium ? '-medium' : ''}.png`;
}

/** The avatar size limit in force: the reference's, unless the operator's upload limit is lower. */
export function avatarLimitMib(services: Services): number {
  return Math.min(MAX_AVATAR_FILE_SIZE_MIB, services.config.maxFileUploadSizeMib);
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
  /** The spooled upload, or null when it was over the upload limit. */
  file: SpooledFile | null;
  /** Its first bytes. */
  head: Buffer;
}

/** The stored sizes of one uploaded avatar, checked against the size limit and read as an image. */
export async function avatarImagesOf(services: Services, upload: AvatarUpload): Promise<AvatarImages> {
  const limit = avatarLimitMib(services);
  if (!upload.file || upload.file.size > limit * 1024 * 1024) throw new ApiError(`Uploaded file is larger than the allowed limit of ${limit} MiB`);
  return avatarImages(upload.file.path, upload.head);
}

/** Puts a user's avatar images in file storage, before the row points at them. */
export async function storeAvatarImages(services: Services, realmId: number, userId: number, images: AvatarImages): Promise<void> {
  const storage = storageOf(services);
  await putImage(storage, avatarKey(realmId, userId), images.normal);
  await putImage(storage, avatarKey(realmId, userId, true), images.medium);
}

/**
 * POST /users/me/avatar after the request's parts are spooled: exactly one file, the organization's
 * rule, the size limit, then the images; returns the user as now stored.
 */
export async function setAvatarFromUpload(services: Services, user: UserRow, realm: RealmRow, uploads: AvatarUpload[]): Promise<UserRow> {
  if (uploads.length !== 1) throw new ApiError('You must upload exactly one avatar.');
  checkAvatarChangeAllowed(user, realm);
  const images = await avatarImagesOf(services, uploads[0]!);
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
