// Serving uploaded files (outside /api/v1, at the paths messages link):
//   GET /user_uploads/{realm_id}/{path...}             to an authenticated user who may read the file
//   GET /user_uploads/thumbnail/{path_id}/{format}     an image's thumbnail, to exactly the same people
//   GET /user_uploads/temporary/{token}/{name}         to anyone holding a fresh signed token
// Without credentials or a session, an organization that lets spectators in serves the files its
// web-public streams link (and their thumbnails); everyone else gets 401 as before.
// Files go out with their stored type, inline only when that type is safe to show, nosniff, a
// Content-Security-Policy that lets nothing run, byte ranges and private caching.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { storageOf } from '../adapters/storage/services.js';
import { ensureThumbnail, imageOfAttachment } from '../actions/thumbnails.js';
import type { AttachmentRow, UserRow } from '../db/schema.js';
import { ApiError, NotFoundError } from '../errors.js';
import { realmSettings, webPublicAccessEnabled } from '../lib/realm-settings.js';
import { hasFormat, THUMBNAIL_CONTENT_TYPE, thumbnailFileName, thumbnailFormat, thumbnailKey } from '../lib/thumbnails.js';
import { contentDisposition, isInlineType, parseRange } from '../lib/uploads.js';
import { attachmentById, attachmentByPath, canReadAttachment, isWebPublicAttachment } from '../queries/attachments.js';
import { getRealmForHost } from '../queries/realms.js';
import type { Services } from '../services.js';
import { hasSessionCookie } from './session-auth.js';
import { rateLimiterFor } from './rate-limit.js';
import { authenticateRequest } from './request-auth.js';

/** How long a temporary URL works (the reference's 60 seconds). */
export const TEMPORARY_URL_SECONDS = 60;
const SANDBOX_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; media-src 'self'; sandbox";
// PDF viewers do not run inside a sandbox; a PDF still gets no scripts or connections of its own.
const PDF_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; object-src 'self'";

export class FileNotFoundError extends NotFoundError {
  constructor() {
    super('File not found');
  }
}

export class FileAccessDeniedError extends ApiError {
  constructor() {
    super('You are not authorized to view this file.', { status: 403 });
  }
}

function sign(attachment: AttachmentRow, expires: number): string {
  return createHmac('sha256', attachment.secret).update(`${attachment.id}.${expires}`).digest('hex');
}

/** The token of a temporary URL: the attachment, an expiry, and an HMAC with the attachment's secret. */
export function temporaryToken(attachment: AttachmentRow, now: number): string {
  const expires = Math.floor(now) + TEMPORARY_URL_SECONDS;
  return `${attachment.id}.${expires}.${sign(attachment, expires)}`;
}

async function attachmentForToken(services: Services, token: string): Promise<AttachmentRow | null> {
  const match = /^(\d{1,10})\.(\d{1,12})\.([0-9a-f]{64})$/.exec(token);
  if (!match) return null;
  const expires = Number(match[2]);
  if (expires < services.clock.now()) return null;
  const attachment = await attachmentById(services.db, Number(match[1]));
  if (!attachment) return null;
  const good = Buffer.from(sign(attachment, expires), 'hex');
  return timingSafeEqual(good, Buffer.from(match[3]!, 'hex')) ? attachment : null;
}

/**
 * The user a file request comes from: API clients send Basic auth, and a browser without it its
 * session cookie (images in messages load with the cookie alone).
 */
async function fileRequestUser(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<UserRow> {
  const bySession = req.headers.authorization === undefined && hasSessionCookie(req);
  return (await authenticateRequest(services, req, reply, bySession)).user;
}

/** The attachment at a realm-relative path that the user may read; 404 or 403 otherwise. */
export async function readableAttachment(services: Services, user: UserRow, realmIdStr: string, rest: string): Promise<AttachmentRow> {
  if (!/^\d{1,10}$/.test(realmIdStr) || Number(realmIdStr) !== user.realm_id) throw new FileNotFoundError();
  const attachment = await attachmentByPath(services.db, user.realm_id, `${realmIdStr}/${rest}`);
  if (!attachment) throw new FileNotFoundError();
  if (!(await canReadAttachment(services.db, user, attachment))) throw new FileAccessDeniedError();
  return attachment;
}

/** What one response serves: an upload, or one of its thumbnails. */
interface ServedFile {
  key: string;
  size: number;
  contentType: string;
  fileName: string;
  etag: string;
  /** Milliseconds. */
  modified: number;
}

function originalFile(attachment: AttachmentRow): ServedFile {
  return {
    key: attachment.path_id,
    size: attachment.size,
    contentType: attachment.content_type,
    fileName: attachment.file_name,
    etag: `"${attachment.id}-${attachment.size}-${attachment.create_time}"`,
    modified: attachment.create_time,
  };
}

/**
 * Spectators (no credentials, no session) of an organization that lets them in: the files its
 * web-public streams link. Null when the request is not a spectator's, so it authenticates.
 */
async function spectatorAttachment(services: Services, req: FastifyRequest, reply: FastifyReply, realmIdStr: string, rest: string): Promise<AttachmentRow | null> {
  if (req.headers.authorization !== undefined || hasSessionCookie(req)) return null;
  const realm = await getRealmForHost(services.db, req.headers.host);
  if (!realm || !webPublicAccessEnabled(services.config, realmSettings(realm))) return null;
  reply.headers(await rateLimiterFor(services).unauthenticated(req.ip));
  if (!/^\d{1,10}$/.test(realmIdStr) || Number(realmIdStr) !== realm.id) throw new FileNotFoundError();
  const attachment = await attachmentByPath(services.db, realm.id, `${realmIdStr}/${rest}`);
  if (!attachment) throw new FileNotFoundError();
  if (!(await isWebPublicAttachment(services.db, attachment))) throw new FileAccessDeniedError();
  return attachment;
}

/** The attachment a file request names, if its sender (a user or a spectator) may read it. */
async function requestedAttachment(services: Services, req: FastifyRequest, reply: FastifyReply, realmIdStr: string, rest: string): Promise<AttachmentRow> {
  const forSpectator = await spectatorAttachment(services, req, reply, realmIdStr, rest);
  if (forSpectator) return forSpectator;
  const user = await fileRequestUser(services, req, reply);
  return readableAttachment(services, user, realmIdStr, rest);
}

async function sendFile(services: Services, req: FastifyRequest, reply: FastifyReply, file: ServedFile) {
  const inline = isInlineType(file.contentType);
  reply.headers({
    'content-type': file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType,
    'content-disposition': contentDisposition(inline, file.fileName),
    'x-content-type-options': 'nosniff',
    'content-security-policy': file.contentType === 'application/pdf' ? PDF_CSP : SANDBOX_CSP,
    'cache-control': 'private, max-age=86400, immutable',
    'accept-ranges': 'bytes',
    etag: file.etag,
    'last-modified': new Date(file.modified).toUTCString(),
  });
  if (req.headers['if-none-match'] === file.etag) return reply.code(304).send();
  const size = file.size;
  const range = parseRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).send();
  }
  const object = await storageOf(services).get(file.key, range ?? undefined);
  if (!object) throw new FileNotFoundError();
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', size);
  }
  return reply.send(object.body);
}

/**
 * An image's thumbnail in the named format, made now if it is missing; the original image when it
 * cannot be made. 404 for files that have no thumbnail (not images, or too large to decode).
 */
async function sendThumbnail(services: Services, req: FastifyRequest, reply: FastifyReply, attachment: AttachmentRow, formatName: string) {
  const format = thumbnailFormat(formatName);
  const image = format ? await imageOfAttachment(services.db, attachment.id) : undefined;
  if (!format || !image || !hasFormat(image, format)) throw new FileNotFoundError();
  if (await ensureThumbnail(services, attachment, format)) {
    const key = thumbnailKey(attachment.path_id, format);
    const size = await storageOf(services).stat(key);
    if (size !== null) {
      const fileName = thumbnailFileName(attachment.file_name);
      const etag = `"${attachment.id}-${format.name}-${size}"`;
      return sendFile(services, req, reply, { key, size, contentType: THUMBNAIL_CONTENT_TYPE, fileName, etag, modified: attachment.create_time });
    }
  }
  return sendFile(services, req, reply, originalFile(attachment));
}

export function registerUploadRoutes(app: FastifyInstance, services: Services): void {
  const limiter = rateLimiterFor(services);
  app.get('/user_uploads/temporary/:token/:filename', async (req, reply) => {
    // No credentials here: the client's address carries the rate limit.
    reply.headers(await limiter.unauthenticated(req.ip));
    const { token, filename } = req.params as { token: string; filename: string };
    const attachment = await attachmentForToken(services, token);
    if (!attachment) throw new ApiError('Invalid token');
    if (attachment.path_id.split('/').pop() !== filename) throw new ApiError('Invalid filename');
    return sendFile(services, req, reply, originalFile(attachment));
  });
  app.get('/user_uploads/thumbnail/*', async (req, reply) => {
    // {realm_id}/{path...}/{format}: the path_id, then the format's name.
    const match = /^([^/]*)\/(.+)\/([^/]+)$/.exec((req.params as { '*': string })['*']);
    const attachment = await requestedAttachment(services, req, reply, match?.[1] ?? '', match?.[2] ?? '');
    return sendThumbnail(services, req, reply, attachment, match![3]!);
  });
  app.get('/user_uploads/:realm_id_str/*', async (req, reply) => {
    const params = req.params as { realm_id_str: string; '*': string };
    return sendFile(services, req, reply, originalFile(await requestedAttachment(services, req, reply, params.realm_id_str, params['*'])));
  });
}
