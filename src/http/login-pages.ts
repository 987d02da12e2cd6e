// The pages a browser logs in and out with: an email-and-password form, on development servers a
// one-click login per user, and logout. A login starts a server-side session (src/http/session-auth.ts);
// the page's script never sees an API key.
import type { FastifyInstance } from 'fastify';
import type { RealmRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { safeEqual } from '../lib/credentials.js';
import { escapeHtml } from '../lib/markdown/escape.js';
import { CSRF_HEADER, parseCookies, SESSION_COOKIE, sessionCookies } from '../lib/sessions.js';
import { checkDevLogin, checkPasswordLogin, listDevUsers } from '../queries/login.js';
import { getRealmForHost } from '../queries/realms.js';
import { endSession, sessionByToken } from '../queries/sessions.js';
import type { Services } from '../services.js';
import { checkSameOrigin, formValue, PAGE_HEADERS, page, startSession } from './html-pages.js';
import { rateLimiterFor } from './rate-limit.js';
import { CsrfError } from './session-auth.js';

/** Where to go after logging in: a path on this server only, never another site. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** The login form, with an error or notice above it and the email field filled in if given. */
export function loginForm(realm: RealmRow | undefined, dev: boolean, next: string, error?: string, email = ''): string {
  const name = realm?.name ?? 'Confab';
  return page(
    `Log in · ${name}`,
    `<h1>Log in to ${escapeHtml(name)}</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/accounts/login/">
<label for="email">Email</label><input id="email" name="username" type="email" autocomplete="username" value="${escapeHtml(email)}" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<input type="hidden" name="next" value="${escapeHtml(next)}"><button type="submit">Log in</button></form>
${dev ? '<p><a href="/devlogin/">Log in as a development user</a></p>' : ''}`,
  );
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
