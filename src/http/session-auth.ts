// Authentication of the web client's /json/... requests: the session cookie, and for every request
// that changes something, the CSRF token header matching the session's and nothing saying it came
// from another site. A session ends when it expires, when its user is deactivated, and when the
// password or API key it began with changes.
import type { FastifyRequest } from 'fastify';
import type { UserSessionRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { safeEqual } from '../lib/credentials.js';
import { authStamp, CSRF_HEADER, parseCookies, SESSION_COOKIE } from '../lib/sessions.js';
import { getRealmById, getRealmForHost } from '../queries/realms.js';
import { endSession, restampSession, sessionByToken } from '../queries/sessions.js';
import { getUserById } from '../queries/users.js';
import type { Services } from '../services.js';
import type { Authenticated } from './auth.js';
import { CsrfError, checkSameOrigin } from './csrf.js';

/** A browser must not be asked for Basic credentials, so unlike the API's 401 this one has no challenge. */
export class SessionRequiredError extends ApiError {
  constructor() {
    super('Not logged in: API authentication or user session required', { code: 'UNAUTHORIZED', status: 401 });
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function hasSessionCookie(req: FastifyRequest): boolean {
  return parseCookies(req.headers.cookie).has(SESSION_COOKIE);
}

export interface SessionAuthenticated extends Authenticated {
  session: UserSessionRow;
}

export async function authenticateSession(services: Services, req: FastifyRequest): Promise<SessionAuthenticated> {
  const token = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
  if (!token) throw new SessionRequiredError();
  const session = await sessionByToken(services.db, token);
  if (!session) throw new SessionRequiredError();
  // The host's organization comes from the kept realm list, as for API requests; only a session
  // presented on another organization's host needs its own organization read.
  const hostRealm = await getRealmForHost(services.db, req.headers.host);
  const realm = hostRealm?.id === session.realm_id ? hostRealm : await getRealmById(services.db, session.realm_id);
  const user = realm && (await getUserById(services.db, realm.id, session.user_id));
  const expired = Number(session.expires) <= services.clock.now();
  if (!realm || !user || expired || !user.is_active || realm.deactivated || session.auth_stamp !== authStamp(user)) {
    await services.store.transact((tx) => endSession(tx, session.id));
    throw new SessionRequiredError();
  }
  // A session is good only on its own organization's host.
  if (hostRealm?.id !== realm.id) throw new SessionRequiredError();
  if (!SAFE_METHODS.has(req.method)) {
    checkSameOrigin(req);
    const header = req.headers[CSRF_HEADER];
    if (typeof header !== 'string' || header === '') throw new CsrfError('CSRF token missing.');
    if (!safeEqual(header, session.csrf_token)) throw new CsrfError("CSRF token from the 'X-Csrftoken' HTTP header incorrect.");
  }
  return { user, realm, session };
}

/**
 * After a change made through a session, such as a new password: the reference keeps the session
 * that made it, while every other one ends.
 */
export async function keepSessionAfterChange(services: Services, auth: SessionAuthenticated): Promise<void> {
  const user = await getUserById(services.db, auth.realm.id, auth.user.id);
  if (!user?.is_active || authStamp(user) === auth.session.auth_stamp) return;
  await services.store.transact((tx) => restampSession(tx, auth.session.id, user));
}
