// How the upload routes (files, avatars, custom emoji, the organization's icon and logo) receive
// their one file. Each authenticates in its onRequest hook, before any of the body is read, so
// nobody unauthenticated gets a byte spooled. The multipart reader (multipart.ts) then hands the
// request's file part to receiveFile, which streams it to a spool file, refusing it as soon as it
// passes the route's limit; a second file part is refused as it starts. The endpoint moves the
// file into storage. Whatever is left spooled when the response closes (an error, a broken
// connection) is deleted.
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { FileTooLargeError, spoolUpload } from '../adapters/storage/spool.js';
import { storageOf } from '../adapters/storage/services.js';
import type { SpooledFile } from '../adapters/storage/types.js';
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';
import type { AuthMode, Endpoint } from './endpoint.js';
import { authenticateRequest } from './request-auth.js';

/** What an upload route takes, and the reference's errors for what it does not. */
export interface UploadRules {
  /** The 400 for a request with more than one file part. */
  oneFileError: string;
  /** The largest file the route takes, in MiB. */
  limitMib(services: Services): number;
  /** The 400 for a file past that limit. */
  tooLargeError(limitMib: number): string;
}

export interface ReceivedFile {
  fileName: string;
  mimeType: string;
  file: SpooledFile;
  /** The file's first bytes, for recognizing its real type. */
  head: Buffer;
}

export interface Upload {
  user: UserRow;
  realm: RealmRow;
  rules: UploadRules;
  /** The request's one file part, once it has all arrived; null if it has none. */
  file: ReceivedFile | null;
  /** The connection has closed: whatever is spooled from now on is deleted at once. */
  closed: boolean;
}

const uploads = new WeakMap<FastifyRequest, Upload>();

/** The route options of an upload route: its rules, and credentials (or, under /json, the session) first. */
export function uploadRoute(rules: UploadRules): NonNullable<Endpoint['routeOptions']> {
  return (services, mode): RouteShorthandOptions => ({ config: { upload: rules }, onRequest: authenticateUpload(services, rules, mode) });
}

export function isUploadRoute(route: Endpoint, services: Services): boolean {
  return route.routeOptions?.(services).config?.upload !== undefined;
}

function authenticateUpload(services: Services, rules: UploadRules, mode: AuthMode = 'api') {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const { user, realm } = await authenticateRequest(services, req, reply, mode === 'session');
    const upload: Upload = { user, realm, rules, file: null, closed: false };
    uploads.set(req, upload);
    reply.raw.once('close', () => {
      upload.closed = true;
      void discardSpooled(upload);
    });
  };
}

/** The upload a request to an upload route is receiving; undefined on any other route. */
export function uploadOf(req: FastifyRequest): Upload | undefined {
  return uploads.get(req);
}

/** Spools the request's file part, held to the route's limit. */
export async function receiveFile(services: Services, upload: Upload, source: Readable, fileName: string, mimeType: string): Promise<void> {
  const limitMib = upload.rules.limitMib(services);
  try {
    const { file, head } = await spoolUpload(source, storageOf(services).spoolDir, limitMib * 1024 * 1024);
    upload.file = { fileName, mimeType, file, head };
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new ApiError(upload.rules.tooLargeError(limitMib));
    throw error;
  }
  if (upload.closed) await discardSpooled(upload);
}

export function receivedUpload(req: FastifyRequest): Upload {
  const upload = uploads.get(req);
  if (!upload) throw new Error('an upload route without its onRequest hook');
  return upload;
}

export async function discardSpooled(upload: Upload): Promise<void> {
  if (upload.file) await rm(upload.file.file.path, { force: true });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on upload routes (see uploadRoute). */
    upload?: UploadRules;
  }
}
