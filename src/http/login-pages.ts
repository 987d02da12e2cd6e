// The pages a browser logs in and out with: an email-and-password form, on development servers a
// one-click login per user, and logout. A login starts a server-side session (src/http/session-auth.ts);
// the page's script never sees an API key.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { safeEqual } from '../lib/credentials.js';
import { escapeHtml } from '../lib/markdown/escape.js';
import { CSRF_HEADER, parseCookies, SESSION_COOKIE, SESSION_SECONDS, sessionCookies } from '../lib/sessions.js';
import { checkDevLogin, checkPasswordLogin, listDevUsers } from '../queries/login.js';
import { getRealmForHost } from '../queries/realms.js';
import { createSession, endSession, sessionByToken } from '../queries/sessions.js';
import type { Services } from '../services.js';
import { rateLimiterFor } from './rate-limit.js';
import { CsrfError } from './session-auth.js';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'same-origin',
};

const STYLE = `body{font:16px system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f5f5f7;color:#222}
main{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:min(22rem,92vw);box-sizing:border-box}
label{display:block;margin:.8rem 0 .3rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
button{margin-top:1.2rem;padding:.55rem 1rem;font:inherit;cursor:pointer}[role=alert]{color:#b00020}
ul{list-style:none;padding:0}li form{margin:0}@media (prefers-color-scheme:dark){body{background:#1d1d20;color:#eee}main{background:#2a2a2e}a{color:#8cb8f0}}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** Where to go after logging in: a path on this server only, never another site. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

function loginForm(realm: RealmRow | undefined, dev: boolean, next: string, error?: string): string {
  const name = realm?.name ?? 'Confab';
  return page(
    `Log in · ${name}`,
    `<h1>Log in to ${escapeHtml(name)}</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/accounts/login/">
<label for="email">Email</label><input id="email" name="username" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<input type="hidden" name="next" value="${escapeHtml(next)}"><button type="submit">Log in</button></form>
${dev ? '<p><a href="/devlogin/">Log in as a development user</a></p>' : ''}`,
  );
}

function formValue(req: FastifyRequest, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name] ?? (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** A form posted from another site must not log the browser in (to someone else's account, say). */
function checkSameOrigin(req: FastifyRequest): void {
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw new CsrfError('Origin checking failed - the request did not come from this site.');
  }
  if (host !== req.headers.host) throw new CsrfError('Origin checking failed - the request did not come from this site.');
}

async function startSession(services: Services, req: FastifyRequest, reply: FastifyReply, user: UserRow, next: string) {
  const session = await services.store.transact((tx) => createSession(tx, user, services.clock.now()));
  const secure = req.protocol === 'https';
  return reply.code(302).header('set-cookie', sessionCookies(session.token, session.csrfToken, SESSION_SECONDS, secure)).header('location', next).send();
}

export function registerLoginPages(app: FastifyInstance, services: Services): void {
  app.get('/login', async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    return reply.headers(PAGE_HEADERS).send(loginForm(realm, services.config.dev, safeNext(formValue(req, 'next'))));
  });

  app.post('/accounts/login', async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    const next = safeNext(formValue(req, 'next'));
    const username = formValue(req, 'username') ?? '';
    try {
      checkSameOrigin(req);
      const user = await rateLimiterFor(services).login(req.ip, username, () =>
        checkPasswordLogin(services.db, realm, username, formValue(req, 'password') ?? ''),
      );
      return await startSession(services, req, reply, user, next);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return reply.code(error.status).headers({ ...PAGE_HEADERS, ...error.headers }).send(loginForm(realm, services.config.dev, next, error.message));
    }
  });

  app.get('/devlogin', async (req, reply) => {
    if (!services.config.dev) return reply.code(404).headers(PAGE_HEADERS).send(page('Not found', '<h1>Not found</h1>'));
    const realm = await getRealmForHost(services.db, req.headers.host);
    const { direct_admins, direct_users } = await listDevUsers(services.db, true);
    const items = [...direct_admins, ...direct_users]
      .filter((u) => u.realm_url === realm?.url)
      .map((u) => `<li><form method="post" action="/accounts/login/local/"><input type="hidden" name="direct_email" value="${escapeHtml(u.email)}"><button type="submit">${escapeHtml(u.email)}</button></form></li>`)
      .join('');
    return reply.headers(PAGE_HEADERS).send(page('Development login', `<h1>Log in as</h1><ul>${items}</ul>`));
  });

  app.post('/accounts/login/local', async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    try {
      checkSameOrigin(req);
      const user = await checkDevLogin(services.db, services.config.dev, realm, formValue(req, 'direct_email') ?? '');
      return await startSession(services, req, reply, user, '/');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return reply.code(error.status).headers(PAGE_HEADERS).send(page('Development login', `<p role="alert">${escapeHtml(error.message)}</p>`));
    }
  });

  app.post('/accounts/logout', async (req, reply) => {
    const token = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    const session = token ? await sessionByToken(services.db, token) : undefined;
    if (session) {
      const offered = req.headers[CSRF_HEADER] ?? formValue(req, 'csrfmiddlewaretoken');
      if (typeof offered !== 'string' || !safeEqual(offered, session.csrf_token)) {
        const error = new CsrfError(offered ? "CSRF token from the 'X-Csrftoken' HTTP header incorrect." : 'CSRF token missing.');
        return reply.code(error.status).headers(PAGE_HEADERS).send(page('Log out', `<p role="alert">${escapeHtml(error.message)}</p>`));
      }
      await services.store.transact((tx) => endSession(tx, session.id));
    }
    return reply.code(302).header('set-cookie', sessionCookies('', '', 0, req.protocol === 'https')).header('location', '/login/').send();
  });
}
