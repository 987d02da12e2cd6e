// The web client's sessions: logging in and out, /json/... authenticated by the session cookie and
// the CSRF header, and the ways a session ends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { SESSION_SECONDS } from '../../src/lib/sessions.js';
import { createOtherRealm, OTHER_HOST, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';
import { multipartBody } from '../support/multipart.js';

const HOST = 'confab.test';

interface Browser {
  cookie: string;
  csrf: string;
}

for (const dialect of testDialects()) {
  describe(`browser sessions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const form = (body: Record<string, string>) => new URLSearchParams(body).toString();
    /** A form of the server's pages, posted with its token. */
    const post = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url,
        payload: form(withFormToken(body)),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });

    function cookiesOf(res: { headers: Record<string, unknown> }): string[] {
      const raw = res.headers['set-cookie'];
      return Array.isArray(raw) ? (raw as string[]) : raw === undefined ? [] : [String(raw)];
    }

    async function logIn(email: string, password = DEV_PASSWORD): Promise<Browser> {
      const res = await post('/accounts/login/', { username: email, password });
      assert.equal(res.statusCode, 302, res.body);
      const values = new Map(cookiesOf(res).map((c) => [c.split('=')[0]!, c.split(';')[0]!.split('=')[1]!]));
      return { cookie: `confab_session=${values.get('confab_session')}; csrftoken=${values.get('csrftoken')}`, csrf: values.get('csrftoken')! };
    }

    const json = (browser: Browser | null, method: 'GET' | 'POST' | 'PATCH', url: string, body?: Record<string, string>, csrf?: string | null) =>
      ctx.app.inject({
        method,
        url: `/json${url}`,
        headers: {
          host: HOST,
          ...(browser ? { cookie: browser.cookie } : {}),
          ...(csrf === null ? {} : { 'x-csrftoken': csrf ?? browser?.csrf ?? '' }),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body ? { payload: form(body) } : {}),
      });

    it('serves a login form with labelled fields, never cached', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/login/', headers: { host: HOST } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(res.body, /<label for="email">Email<\/label><input id="email" name="username"/);
      assert.match(res.body, /<label for="password">Password<\/label><input id="password" name="password" type="password"/);
      assert.match(res.body, /<button type="submit">Log in<\/button>/);
      assert.match(res.body, /<h1>Log in to Confab Dev<\/h1>/);
      assert.match(res.body, /<form method="post" action="\/accounts\/login\/"><input type="hidden" name="csrfmiddlewaretoken" value="[\w-]{43}">/);
    });

    it('starts a session on a correct password, with an HttpOnly session cookie and a readable CSRF cookie', async () => {
      const res = await post('/accounts/login/', { username: 'mark@confab.test', password: DEV_PASSWORD, next: '/#narrow/stream/1-general' });
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, '/#narrow/stream/1-general');
      const [session, csrf] = cookiesOf(res);
      assert.match(session!, /^confab_session=[\w-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax; HttpOnly$/);
      assert.match(csrf!, /^csrftoken=[\w-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax$/);
      const offsite = await post('/accounts/login/', { username: 'mark@confab.test', password: DEV_PASSWORD, next: '//evil.example/' });
      assert.equal(offsite.headers.location, '/');
    });

    it('refuses a wrong password on the form, without a session', async () => {
      const res = await post('/accounts/login/', { username: 'mark@confab.test', password: 'wrong' });
      assert.equal(res.statusCode, 401);
      assert.match(res.body, /<p role="alert">Your username or password is incorrect<\/p>/);
      assert.deepEqual(cookiesOf(res), []);
    });

    it('refuses a login form posted from another site', async () => {
      const res = await post('/accounts/login/', { username: 'mark@confab.test', password: DEV_PASSWORD }, { origin: 'https://evil.example' });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(cookiesOf(res), []);
    });

    it('answers /json/... for the session, and refuses without it (no Basic challenge)', async () => {
      const browser = await logIn('mark@confab.test');
      const me = await json(browser, 'GET', '/users/me');
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().email, 'mark@confab.test');
      const anonymous = await json(null, 'GET', '/users/me');
      assert.equal(anonymous.statusCode, 401);
      assert.deepEqual(anonymous.json(), { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
      assert.equal(anonymous.headers['www-authenticate'], undefined);
      // API credentials are for /api/v1, not for the web client's routes.
      const basic = Buffer.from(`mark@confab.test:${ctx.seed.users.mark.api_key}`).toString('base64');
      const withKey = await ctx.app.inject({ method: 'GET', url: '/json/users/me', headers: { host: HOST, authorization: `Basic ${basic}` } });
      assert.equal(withKey.statusCode, 401);
    });

    it('needs the CSRF header on every change', async () => {
      const browser = await logIn('mark@confab.test');
      const message = { type: 'stream', to: 'general', topic: 'web', content: 'From the browser' };
      const missing = await json(browser, 'POST', '/messages', message, null);
      assert.equal(missing.statusCode, 403);
      assert.deepEqual(missing.json(), { result: 'error', msg: 'CSRF error: CSRF token missing.', code: 'CSRF_FAILED' });
      const wrong = await json(browser, 'POST', '/messages', message, 'x'.repeat(43));
      assert.deepEqual(wrong.json().msg, "CSRF error: CSRF token from the 'X-Csrftoken' HTTP header incorrect.");
      const sent = await json(browser, 'POST', '/messages', message);
      assert.equal(sent.statusCode, 200, sent.body);
      assert.equal(typeof sent.json().id, 'number');
    });

    it('uploads a file through /json with the CSRF header, and the browser downloads it with its cookie', async () => {
      const browser = await logIn('mark@confab.test');
      const { payload, contentType } = multipartBody([{ name: 'file', value: 'hello from a browser', filename: 'hello.txt', contentType: 'text/plain' }]);
      const upload = (csrf: string | null) =>
        ctx.app.inject({
          method: 'POST',
          url: '/json/user_uploads',
          headers: { host: HOST, cookie: browser.cookie, 'content-type': contentType, ...(csrf ? { 'x-csrftoken': csrf } : {}) },
          payload,
        });
      const refused = await upload(null);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().code, 'CSRF_FAILED');
      const res = await upload(browser.csrf);
      assert.equal(res.statusCode, 200, res.body);
      const file = await ctx.app.inject({ method: 'GET', url: res.json().uri, headers: { host: HOST, cookie: browser.cookie } });
      assert.equal(file.statusCode, 200);
      assert.equal(file.body, 'hello from a browser');
      const stranger = await ctx.app.inject({ method: 'GET', url: res.json().uri, headers: { host: HOST, cookie: (await logIn('mona@confab.test')).cookie } });
      assert.equal(stranger.statusCode, 403);
    });

    it('logs out: the session ends and its cookies are cleared', async () => {
      const browser = await logIn('mona@confab.test');
      const refused = await ctx.app.inject({ method: 'POST', url: '/accounts/logout/', headers: { host: HOST, cookie: browser.cookie } });
      assert.equal(refused.statusCode, 403);
      const res = await ctx.app.inject({ method: 'POST', url: '/accounts/logout/', headers: { host: HOST, cookie: browser.cookie, 'x-csrftoken': browser.csrf } });
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, '/login/');
      assert.ok(cookiesOf(res).every((c) => c.includes('Max-Age=0')));
      assert.equal((await json(browser, 'GET', '/users/me')).statusCode, 401);
    });

    it('ends after two weeks', async () => {
      const browser = await logIn('mona@confab.test');
      const start = ctx.clock.now();
      try {
        ctx.clock.advance(SESSION_SECONDS - 1);
        assert.equal((await json(browser, 'GET', '/users/me')).statusCode, 200);
        ctx.clock.advance(1);
        assert.equal((await json(browser, 'GET', '/users/me')).statusCode, 401);
      } finally {
        ctx.clock.set(start);
      }
    });

    it('a password change keeps the session that made it and ends the others', async () => {
      const here = await logIn('milo@confab.test');
      const elsewhere = await logIn('milo@confab.test');
      const changed = await json(here, 'PATCH', '/settings', { old_password: DEV_PASSWORD, new_password: 'a-new-password-1' });
      assert.equal(changed.statusCode, 200, changed.body);
      try {
        assert.equal((await json(here, 'GET', '/users/me')).statusCode, 200);
        assert.equal((await json(elsewhere, 'GET', '/users/me')).statusCode, 401);
      } finally {
        const back = await json(here, 'PATCH', '/settings', { old_password: 'a-new-password-1', new_password: DEV_PASSWORD });
        assert.equal(back.statusCode, 200, back.body);
      }
    });

    it('a new API key or a deactivation ends every session', async () => {
      const browser = await logIn('maya@confab.test');
      const { maya } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ api_key: 'k'.repeat(32) }).where('id', '=', maya.id).execute();
      try {
        assert.equal((await json(browser, 'GET', '/users/me')).statusCode, 401);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ api_key: maya.api_key }).where('id', '=', maya.id).execute();
      }
      const again = await logIn('maya@confab.test');
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', maya.id).execute();
      try {
        assert.equal((await json(again, 'GET', '/users/me')).statusCode, 401);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', maya.id).execute();
      }
    });

    it("is good only on its own organization's host", async () => {
      await createOtherRealm(ctx, { email: 'owner@other.confab.test', fullName: 'Other Owner' });
      const browser = await logIn('adam@confab.test');
      const res = await ctx.app.inject({ method: 'GET', url: '/json/users/me', headers: { host: OTHER_HOST, cookie: browser.cookie } });
      assert.equal(res.statusCode, 401);
    });

    it('offers one-click logins on a development server', async () => {
      const list = await ctx.app.inject({ method: 'GET', url: '/devlogin/', headers: { host: HOST } });
      assert.equal(list.statusCode, 200);
      assert.match(list.body, /<input type="hidden" name="csrfmiddlewaretoken" value="[\w-]{43}"><input type="hidden" name="direct_email" value="mark@confab.test"><button type="submit">mark@confab.test<\/button>/);
      const res = await post('/accounts/login/local/', { direct_email: 'gus@confab.test' });
      assert.equal(res.statusCode, 302);
      const cookie = cookiesOf(res).map((c) => c.split(';')[0]).join('; ');
      const me = await ctx.app.inject({ method: 'GET', url: '/json/users/me', headers: { host: HOST, cookie } });
      assert.equal(me.json().email, 'gus@confab.test');
    });
  });

  describe(`browser sessions on a production server [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect, { dev: false })));
    after(() => ctx.close());

    it('has no development login', async () => {
      assert.equal((await ctx.app.inject({ method: 'GET', url: '/devlogin/', headers: { host: HOST } })).statusCode, 404);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/accounts/login/local/',
        payload: new URLSearchParams(withFormToken({ direct_email: 'mark@confab.test' })).toString(),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.headers['set-cookie'], undefined);
    });
  });
}
