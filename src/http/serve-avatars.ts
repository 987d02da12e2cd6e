// Serving avatars (outside /api/v1, at the URLs avatar_url names):
//   GET /user_avatars/{realm_id}/{user_id}.png and {user_id}-medium.png
//       the uploaded avatar, or for a user without one Confab's generated default
//   GET /avatar/{email_or_id} and /avatar/{email_or_id}/medium
//       a redirect to the user's current avatar URL, as the reference answers
// Readable by anyone authenticated in the organization (API credentials or the browser's session),
// and by spectators (no credentials) only where the organization allows web-public access.
// Avatar images are a page's worth of small requests: they count against no per-user API limit.
// Only two-segment paths are routed under /user_avatars/{realm_id}/, so custom emoji at
// /user_avatars/{realm_id}/emoji/... stay free for their own route.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { avatarKey } from '../actions/avatar-files.js';
import { storageOf } from '../adapters/storage/services.js';
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError, NotFoundError, UnauthorizedError } from '../errors.js';
import { mediumAvatarUrl } from '../events/state/users.js';
import { DEFAULT_AVATAR_SIZE, defaultAvatarPng, MEDIUM_AVATAR_SIZE } from '../lib/avatar-default.js';
import { realmSettings, webPublicAccessEnabled } from '../lib/realm-settings.js';
import { avatarUrl, gravatarUrl, isGravatarEnabled } from '../lib/user-format.js';
import { getRealmForHost } from '../queries/realms.js';
import { findUserByEmailFor, getUserById } from '../queries/users.js';
import type { Services } from '../services.js';
import { authenticate } from './auth.js';
import { rateLimiterFor } from './rate-limit.js';
import { authenticateSession, hasSessionCookie } from './session-auth.js';

/** Nothing in an avatar response may run, whatever a browser makes of it. */
const AVATAR_CSP = "default-src 'none'; sandbox";
/** An uploaded avatar's URL carries its version, so a copy never goes stale. */
const UPLOADED_CACHING = 'private, max-age=31536000, immutable';
/** A default avatar shows the name's initial, which a rename changes under the same URL. */
const DEFAULT_CACHING = 'private, max-age=3600';

const AVATAR_FILE = /^(\d{1,10})(-medium)?\.png$/;

class AvatarNotFoundError extends NotFoundError {
  constructor() {
    super('File not found');
  }
}

interface Viewer {
  realm: RealmRow;
  /** null for a spectator. */
  user: UserRow | null;
}

/** Who asks: a user by API credentials or session, else a spectator where the organization allows them. */
async function avatarViewer(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<Viewer> {
  const limiter = rateLimiterFor(services);
  if (req.headers.authorization !== undefined) {
    return limiter.authenticate(req.ip, () => authenticate(services, req.headers.authorization, req.headers.host));
  }
  if (hasSessionCookie(req)) return authenticateSession(services, req);
  const realm = await getRealmForHost(services.db, req.headers.host);
  if (!realm || realm.deactivated || !webPublicAccessEnabled(services.config, realmSettings(realm))) throw new UnauthorizedError();
  reply.headers(await limiter.unauthenticated(req.ip));
  return { realm, user: null };
}

function avatarHeaders(reply: FastifyReply, etag: string, caching: string): void {
  reply.headers({
    'content-type': 'image/png',
    'x-content-type-options': 'nosniff',
    'content-security-policy': AVATAR_CSP,
    'cache-control': caching,
    etag,
  });
}

async function serveAvatarFile(services: Services, req: FastifyRequest, reply: FastifyReply) {
  const { realm_id: realmIdStr, file } = req.params as { realm_id: string; file: string };
  const viewer = await avatarViewer(services, req, reply);
  const match = AVATAR_FILE.exec(file);
  if (!match || !/^\d{1,10}$/.test(realmIdStr) || Number(realmIdStr) !== viewer.realm.id) throw new AvatarNotFoundError();
  const target = await getUserById(services.db, viewer.realm.id, Number(match[1]));
  if (!target) throw new AvatarNotFoundError();
  const medium = match[2] !== undefined;
  if (target.avatar_source === 'U') {
    const etag = `"avatar-${target.id}-${target.avatar_version}${medium ? '-medium' : ''}"`;
    // A copy the client holds is good without a look at storage.
    if (req.headers['if-none-match'] === etag) {
      avatarHeaders(reply, etag, UPLOADED_CACHING);
      return reply.code(304).send();
    }
    const object = await storageOf(services).get(avatarKey(target.realm_id, target.id, medium));
    // Missing only in a race with a delete: the default stands in.
    if (object) {
      avatarHeaders(reply, etag, UPLOADED_CACHING);
      return reply.header('content-length', object.size).send(object.body);
    }
  }
  const png = defaultAvatarPng(target.id, target.full_name, medium ? MEDIUM_AVATAR_SIZE : DEFAULT_AVATAR_SIZE);
  const etag = `"default-${createHash('sha256').update(png).digest('base64url').slice(0, 22)}"`;
  avatarHeaders(reply, etag, DEFAULT_CACHING);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.header('content-length', png.length).send(png);
}

/** GET /avatar/{email_or_id}[/medium]: a redirect to the avatar URL, with the request's query added. */
async function redirectToAvatar(services: Services, req: FastifyRequest, reply: FastifyReply, medium: boolean) {
  const { email_or_id: key } = req.params as { email_or_id: string };
  const viewer = await avatarViewer(services, req, reply);
  const byId = /^\d{1,10}$/.test(key);
  // As in the reference, spectators may only name users by id (an address would be looked up for them).
  if (!viewer.user && !byId) throw new UnauthorizedError();
  if (key.length > 320 || key.includes('\0')) throw new ApiError('Invalid email or user id');
  const target = byId
    ? await getUserById(services.db, viewer.realm.id, Number(key))
    : await findUserByEmailFor(services.db, viewer.user!, viewer.realm, key);
  let url: string;
  if (target) {
    url = avatarUrl(target, false)!;
  } else if (isGravatarEnabled() && !byId) {
    // An unknown address gets the Gravatar it would have, as the reference answers.
    url = gravatarUrl(key, 1);
  } else {
    throw new NotFoundError('No such user');
  }
  if (medium) url = mediumAvatarUrl(url);
  const query = req.url.indexOf('?');
  if (query >= 0 && query < req.url.length - 1) url += `&${req.url.slice(query + 1)}`;
  return reply.redirect(url, 302);
}

export function registerAvatarRoutes(app: FastifyInstance, services: Services): void {
  app.get('/user_avatars/:realm_id/:file', (req, reply) => serveAvatarFile(services, req, reply));
  app.get('/avatar/:email_or_id', (req, reply) => redirectToAvatar(services, req, reply, false));
  app.get('/avatar/:email_or_id/medium', (req, reply) => redirectToAvatar(services, req, reply, true));
}
