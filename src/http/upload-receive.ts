// How POST /user_uploads reads its body. The route authenticates in its onRequest hook, before
// any of the body is read, so nobody unauthenticated gets a byte spooled. The multipart reader
// then hands each file part to receivePart, which streams it to a spool file; the endpoint moves
// the one file into storage. Whatever is left spooled when the response closes (an error, a
// broken connection) is deleted.
import { rm } from 'node:fs/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storageOf } from '../adapters/storage/services.js';
import { type SpoolResult, spoolUpload } from '../adapters/storage/spool.js';
import type { RealmRow, UserRow } from '../db/schema.js';
import type { Services } from '../services.js';
import type { AuthMode } from './endpoint.js';
import { authenticateRequest } from './request-auth.js';

export interface ReceivedPart {
  fileName: string;
  mimeType: string;
  result: SpoolResult;
}

interface Upload {
  user: UserRow;
  realm: RealmRow;
  parts: ReceivedPart[];
  /** The connection has closed: whatever is spooled from now on is deleted at once. */
  closed: boolean;
}

const uploads = new WeakMap<FastifyRequest, Upload>();

/** Route config marking a route whose file parts are spooled rather than read into memory. */
export const SPOOL_UPLOADS = { spoolUploads: true };

export function uploadLimitBytes(services: Services): number {
  return services.config.maxFileUploadSizeMib * 1024 * 1024;
}

/** The onRequest hook of an upload route: credentials (or, under /json, the session) and rate limit first. */
export function authenticateUpload(services: Services, mode: AuthMode = 'api') {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const { user, realm } = await authenticateRequest(services, req, reply, mode === 'session');
    const upload: Upload = { user, realm, parts: [], closed: false };
    uploads.set(req, upload);
    reply.raw.once('close', () => {
      upload.closed = true;
      void discardSpooled(upload.parts);
    });
  };
}

/** The multipart reader's onFile: spool on upload routes, read into memory elsewhere (small fields). */
export async function receivePart(services: Services, req: FastifyRequest, part: MultipartFile): Promise<void> {
  const upload = uploads.get(req);
  if (!req.routeOptions.config.spoolUploads || !upload) {
    await part.toBuffer();
    return;
  }
  const received: ReceivedPart = { fileName: part.filename, mimeType: part.mimetype, result: { ok: false, tooLarge: true } };
  upload.parts.push(received);
  received.result = await spoolUpload(part.file, storageOf(services).spoolDir, uploadLimitBytes(services));
  if (upload.closed) await discardSpooled([received]);
}

export function receivedUpload(req: FastifyRequest): Upload {
  const upload = uploads.get(req);
  if (!upload) throw new Error('an upload route without its onRequest hook');
  return upload;
}

export async function discardSpooled(parts: ReceivedPart[]): Promise<void> {
  await Promise.all(parts.map((p) => (p.result.ok ? rm(p.result.file.path, { force: true }) : undefined)));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes whose file parts are spooled to disk (see SPOOL_UPLOADS). */
    spoolUploads?: boolean;
  }
}
