// What the image upload routes (avatars, custom emoji, organization icon and logo) share: the one
// file of the request, held to its own size limit, and storing the processed image.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStorage, SpooledFile } from '../adapters/storage/types.js';
import { ApiError, RequestVariableMissingError } from '../errors.js';
import { collectRaw, p } from './params.js';
import type { Upload, UploadRules } from './upload-receive.js';

/** An image route's rules: one file, at most `limitMib` (or the server's own upload limit, if lower). */
export function imageUploadRules(limitMib: number, oneFileError: string): UploadRules {
  return {
    oneFileError,
    limitMib: (services) => Math.min(limitMib, services.config.maxFileUploadSizeMib),
    tooLargeError: (effectiveMib) => `Uploaded file is larger than the allowed limit of ${effectiveMib} MiB`,
  };
}

/** The request's one spooled image, or the reference's error when it has none (or an empty one). */
export function uploadedImage(upload: Upload): SpooledFile {
  if (!upload.file) throw new ApiError(upload.rules.oneFileError);
  if (upload.file.file.size === 0) throw new ApiError('Could not decode image; did you upload an image file?', { code: 'BAD_IMAGE' });
  return upload.file.file;
}

/** Stores bytes made in memory (a processed image) under key, through a spool file as uploads go. */
export async function storeBytes(storage: FileStorage, key: string, bytes: Buffer, contentType: string): Promise<void> {
  await mkdir(storage.spoolDir, { recursive: true });
  const path = join(storage.spoolDir, `${randomBytes(12).toString('hex')}.part`);
  await writeFile(path, bytes, { flag: 'wx' });
  try {
    await storage.putFile(key, { path, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, contentType);
  } finally {
    await rm(path, { force: true });
  }
}

/** A boolean parameter of a multipart request given as JSON (`night=true`), from its form or query. */
export function jsonBoolParam(query: unknown, body: unknown, name: string): boolean {
  const raw = collectRaw(query, body)[name];
  if (raw === undefined) throw new RequestVariableMissingError(name);
  return p.bool().parse(raw, name);
}
