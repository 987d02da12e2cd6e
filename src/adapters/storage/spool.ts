// Receiving an upload: the request's file part is written to a local spool file as it arrives,
// counted and hashed on the way, so no upload is ever held in memory. A part over the size limit
// is refused as soon as it passes it; neither it nor one whose connection breaks leaves a spool
// file behind.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SpooledFile } from './types.js';

/** How much of the start of a file is kept for recognizing its real type. */
const HEAD_BYTES = 512;

/** The file went past the limit spoolUpload was given; the rest of it was not read. */
export class FileTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`file larger than ${limitBytes} bytes`);
  }
}

export interface SpoolResult {
  file: SpooledFile;
  /** The file's first bytes. */
  head: Buffer;
}

export async function spoolUpload(source: Readable, dir: string, limitBytes: number): Promise<SpoolResult> {
  await mkdir(dir, { recursive: true });
  // Abandoned meanwhile (the request failed): a pipeline from it would never settle.
  if (source.destroyed) throw Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  const path = join(dir, `${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limitBytes) return done(new FileTooLargeError(limitBytes));
      hash.update(chunk);
      if (headSize < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  const sink = createWriteStream(path, { flags: 'wx' });
  try {
    await pipeline(source, counter, sink);
  } catch (error) {
    // The pipeline can fail while the file is still being opened: removed before then, it would
    // appear afterwards. Once the sink has closed, the file is there to remove (or was never made).
    if (!sink.closed) await once(sink, 'close').catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  return { file: { path, size, sha256: hash.digest('hex') }, head: Buffer.concat(headChunks) };
}
