// The pages a browser logs in and out with: an email-and-password form, on development servers a
// one-click login per user, and logout. A login starts a server-side session (src/http/session-auth.ts);
// the page's script never sees an API key.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RealmRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { safeEqual } from '../lib/credentials.js';
import { escapeHtml } from '../lib/markdown/escape.js';
import { CSRF_HEADER, parseCookies, SESSION_COOKIE, sessionCookies } from '../lib/sessions.js';
import { checkDevLogin, checkPasswordLogin, listDevUsers } from '../queries/login.js';
import { getRealmForHost } from '../queries/realms.js';
import { endSession, sessionByToken } from '../queries/sessions.js';
import type { Services } from '../services.js';
import { CsrfError, checkSameOrigin, FORM_TOKEN_FIELD } from './csrf.js';
import { checkFormPost, formValue, PAGE_HEADERS, page, safeNext, secureCookies, startSession, tokenField } from './html-pages.js';
import { rateLimiterFor } from './rate-limit.js';

/** What the login form shows besides its fields: an error or notice, and the email filled in. */
export interface LoginFormState {
  next: string;
  error?: string;
  email?: string;
}

/** The login form (its token field set up on `reply`). */
export function loginForm(services: Services, req: FastifyRequest, reply: FastifyReply, realm: RealmRow | undefined, state: LoginFormState): string {
  const name = realm?.name ?? 'Confab';
  const { next, error, email = '' } = state;
  return page(
    `Log in · ${name}`,
    `<h1>Log in to ${escapeHtml(name)}</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/accounts/login/">${tokenField(services, req, reply)}
<label for="email">Email</label><input id="email" name="username" type="email" autocomplete="username" value="${escapeHtml(email)}" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<input type="hidden" name="next" value="${escapeHtml(next)}"><button type="submit">Log in</button></form>
<p><a href="/accounts/password/reset/">Forgot your password?</a></p>
${services.config.dev ? '<p><a href="/devlogin/">Log in as a development user</a></p>' : ''}`,
  );
}

export function registerLoginPages(app: FastifyInstance, services: Services): void {
  app.get('/login', async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    return reply.headers(PAGE_HEADERS).send(loginForm(services, req, reply, realm, { next: safeNext(services, formValue(req, 'next')) }));
  });

  app.post('/accounts/login', async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    const next = safeNext(services, formValue(req, 'next'));
    const username = formValue(req, 'username') ?? '';
    try {
      checkFormPost(req);
      const user = await rateLimiterFor(services).login(req.ip, username, () =>
        checkPasswordLogin(services.db, realm, username, formValue(req, 'password') ?? ''),
      );
      return await startSession(services, req, reply, user, next);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const form = loginForm(services, req, reply, realm, { next, error: error.message });
      return reply.code(error.status).headers({ ...PAGE_HEADERS, ...error.headers }).send(form);
    }
  });

  app.get('/devlogin', async (req, reply) => {
    if (!services.config.dev) return reply.code(404).headers(PAGE_HEADERS).send(page('Not found', '<h1>Not found</h1>'));
    const realm = await getRealmForHost(services.db, req.headers.host);
    const { direct_admins, direct_users } = await listDevUsers(services.db, true);
    const token = tokenField(services, req, reply);
    const items = [...direct_admins, ...direct_users]
      .filter((u) => u.realm_url === realm?.url)
      .map((u) => `<li><form method="post" action="/accounts/login/local/">${token}<input type="hidden" name="direct_email" value="${escapeHtml(u.email)}"><button type="submit">${escapeHtml(u.email)}</button></form></li>`)
      .join('');
    return reply.headers(PAGE_HEADERS).send(page('Development login', `<h1>Log in as</h1><ul>${items}</ul>`));
  });

  app.post('/accounts/login/local', async (req, reply) => {
    const realm = await getRealmForHost(services.db, req.headers.host);
    try {
      checkFormPost(req);
      const user = await checkDevLogin(services.db, services.config.dev, realm, formValue(req, 'direct_email') ?? '');
      return await startSession(services, req, reply, user, '/');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const again = services.config.dev ? '<p><a href="/devlogin/">Try again</a></p>' : '';
      return reply.code(error.status).headers(PAGE_HEADERS).send(page('Development login', `<p role="alert">${escapeHtml(error.message)}</p>${again}`));
    }
  });

  app.post('/accounts/logout', async (req, reply) => {
    const token = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    const session = token ? await sessionByToken(services.db, token) : undefined;
    if (session) {
      try {
        checkSameOrigin(req);
        const offered = req.headers[CSRF_HEADER] ?? formValue(req, FORM_TOKEN_FIELD);
        if (typeof offered !== 'string' || !safeEqual(offered, session.csrf_token)) {
          throw new CsrfError(offered ? "CSRF token from the 'X-Csrftoken' HTTP header incorrect." : 'CSRF token missing.');
        }
      } catch (error) {
        if (!(error instanceof CsrfError)) throw error;
        return reply.code(error.status).headers(PAGE_HEADERS).send(page('Log out', `<p role="alert">${escapeHtml(error.message)}</p>`));
      }
      await services.store.transact((tx) => endSession(tx, session.id));
    }
    return reply.code(302).header('set-cookie', sessionCookies('', '', 0, secureCookies(services, req))).header('location', '/login/').send();
  });
}
