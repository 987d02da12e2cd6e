// What the server's own HTML pages (logging in, signing up through an invitation) share: one
// small look, headers that keep them out of caches and frames, form reading, the checks that a form
// was posted from this site, and starting a session once someone is known.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { externalUrl } from '../config.js';
import type { UserRow } from '../db/schema.js';
import { escapeHtml } from '../lib/markdown/escape.js';
import { SESSION_SECONDS, sessionCookies } from '../lib/sessions.js';
import { createSession } from '../queries/sessions.js';
import type { Services } from '../services.js';
import { checkFormToken, checkSameOrigin, FORM_TOKEN_FIELD, formToken } from './csrf.js';

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'same-origin',
};

const STYLE = `body{font:16px system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f5f5f7;color:#222}
main{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:min(22rem,92vw);box-sizing:border-box}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem}
label{display:block;margin:.8rem 0 .3rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
button{margin-top:1.2rem;padding:.55rem 1rem;font:inherit;cursor:pointer}[role=alert]{color:#b00020}
ul{list-style:none;padding:0}li form{margin:0}@media (prefers-color-scheme:dark){body{background:#1d1d20;color:#eee}main{background:#2a2a2e}a{color:#8cb8f0}[role=alert]{color:#ff8a80}}`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** A form field sent in the body (or, for GET pages, the query string). */
export function formValue(req: FastifyRequest, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name] ?? (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Cookies are Secure when the browser reached this server over https: the request says so, or the
 * public URL does (a proxy that is not trusted may still have ended TLS in front of it).
 */
export function secureCookies(services: Services, req: FastifyRequest): boolean {
  return req.protocol === 'https' || externalUrl(services.config).startsWith('https:');
}

/** The hidden field carrying the form's token (setting the csrftoken cookie if the browser has none). */
export function tokenField(services: Services, req: FastifyRequest, reply: FastifyReply): string {
  return `<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${escapeHtml(formToken(req, reply, secureCookies(services, req)))}">`;
}

/** A form posted from another site, or without its token, must not log the browser in (to someone else's account, say). */
export function checkFormPost(req: FastifyRequest): void {
  checkSameOrigin(req);
  checkFormToken(req);
}

/**
 * Where to go after logging in: a page of this site only. `next` is read as a browser would read
 * it (which drops tabs and newlines and takes a backslash for a slash), and only its path, query and
 * fragment are kept.
 */
export function safeNext(services: Services, next: string | undefined): string {
  if (next === undefined) return '/';
  const base = new URL(`${externalUrl(services.config)}/`);
  let target: URL;
  try {
    target = new URL(next, base);
  } catch {
    return '/';
  }
  // A path that starts with two slashes would be read as another host's address.
  if (target.origin !== base.origin || target.pathname.startsWith('//')) return '/';
  return `${target.pathname}${target.search}${target.hash}`;
}

/** Logs the browser in as `user` (the session cookie and its CSRF cookie) and sends it to `next`. */
export async function startSession(services: Services, req: FastifyRequest, reply: FastifyReply, user: UserRow, next: string) {
  const session = await services.store.transact((tx) => createSession(tx, user, services.clock.now()));
  const cookies = sessionCookies(session.token, session.csrfToken, SESSION_SECONDS, secureCookies(services, req));
  return reply.code(302).header('set-cookie', cookies).header('location', next).send();
}
