// Receiving an upload: the request's file part is written to a local spool file as it arrives,
// counted and hashed on the way, so no upload is ever held in memory. A part over the size limit,
// or one whose connection breaks, leaves no spool file behind.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SpooledFile } from './types.js';

/** How much of the start of a file is kept for recognizing its real type. */
const HEAD_BYTES = 512;

export type SpoolResult = { ok: true; file: SpooledFile; head: Buffer } | { ok: false; tooLarge: true };

export async function spoolUpload(source: Readable, dir: string, limitBytes: number): Promise<SpoolResult> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the request still finishes and gets its answer.
      if (size > limitBytes) return done();
      hash.update(chunk);
      if (headSize < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(path, { flags: 'wx' }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  // The multipart reader stops a part at its own limit without an error; that is too large as well.
  if (size > limitBytes || (source as Readable & { truncated?: boolean }).truncated) {
    await rm(path, { force: true });
    return { ok: false, tooLarge: true };
  }
  return { ok: true, file: { path, size, sha256: hash.digest('hex') }, head: Buffer.concat(headChunks) };
}
