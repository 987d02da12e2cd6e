// Defences against another site acting through a visitor's browser, for every request the
// browser's cookies authenticate: what the browser says about where a request comes from (Origin,
// Sec-Fetch-Site), and for the server's own HTML forms a token that must equal the readable
// csrftoken cookie, which another site can neither read nor set.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { safeEqual } from '../lib/credentials.js';
import { CSRF_COOKIE, csrfCookie, newToken, parseCookies } from '../lib/sessions.js';

export class CsrfError extends ApiError {
  constructor(reason: string) {
    super(`CSRF error: ${reason}`, { code: 'CSRF_FAILED', status: 403 });
  }
}

/** The hidden field of every form, named as the reference names it. */
export const FORM_TOKEN_FIELD = 'csrfmiddlewaretoken';
const WELL_FORMED_TOKEN = /^[\w-]{43}$/;
const NOT_THIS_SITE = 'Origin checking failed - the request did not come from this site.';

/**
 * Refuses a request the browser says another site sent. `Sec-Fetch-Site: same-site` counts too: a
 * sibling host (another organization, or another application on the domain) is not this site.
 * `Origin: null` comes from sandboxed frames and from cross-site redirects of a form, so it is
 * foreign as well; only a request with no Origin at all (not a browser's form or fetch) passes
 * without one, and it still needs its token.
 */
export function checkSameOrigin(req: FastifyRequest): void {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw new CsrfError(NOT_THIS_SITE);
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let host: string | null;
  try {
    host = origin === 'null' ? null : new URL(origin).host;
  } catch {
    host = null;
  }
  if (host === null || host !== (req.headers.host ?? '').toLowerCase()) throw new CsrfError(NOT_THIS_SITE);
}

/** The token a form is rendered with: the browser's csrftoken cookie, or a new one set on `reply`. */
export function formToken(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const current = parseCookies(req.headers.cookie).get(CSRF_COOKIE);
  if (current !== undefined && WELL_FORMED_TOKEN.test(current)) return current;
  const token = newToken();
  reply.header('set-cookie', csrfCookie(token, secure));
  return token;
}

/** A posted form must carry, in its body, the value of the csrftoken cookie it was posted with. */
export function checkFormToken(req: FastifyRequest): void {
  const cookie = parseCookies(req.headers.cookie).get(CSRF_COOKIE);
  if (!cookie) throw new CsrfError('CSRF cookie not set.');
  const offered = (req.body as Record<string, unknown> | undefined)?.[FORM_TOKEN_FIELD];
  if (typeof offered !== 'string' || offered === '') throw new CsrfError('CSRF token missing.');
  if (!safeEqual(offered, cookie)) throw new CsrfError('CSRF token incorrect.');
}
