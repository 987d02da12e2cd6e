// What the image upload routes (custom emoji, organization icon and logo) share: the one file of
// the request, held to its own size limit, and storing the processed image.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStorage, SpooledFile } from '../adapters/storage/types.js';
import { ApiError, RequestVariableMissingError } from '../errors.js';
import type { Services } from '../services.js';
import { collectRaw, p } from './params.js';
import type { ReceivedPart } from './upload-receive.js';

/**
 * The request's one spooled file, or the reference's error: `countError` when there is not
 * exactly one, the size error past `limitMib` (or past the server's own upload limit, if lower).
 */
export function singleImageFile(services: Services, parts: ReceivedPart[], limitMib: number, countError: string): SpooledFile {
  if (parts.length !== 1) throw new ApiError(countError);
  const result = parts[0]!.result;
  const effectiveMib = Math.min(limitMib, services.config.maxFileUploadSizeMib);
  if (!result.ok || result.file.size > effectiveMib * 1024 * 1024) {
    throw new ApiError(`Uploaded file is larger than the allowed limit of ${effectiveMib} MiB`);
  }
  if (result.file.size === 0) throw new ApiError('Could not decode image; did you upload an image file?', { code: 'BAD_IMAGE' });
  return result.file;
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
