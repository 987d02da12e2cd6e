// What keeps another site from acting through a visitor's browser: forms of the server's own pages
// carry a token matching the csrftoken cookie, requests the browser says came from elsewhere
// (Origin: null, Sec-Fetch-Site) are refused, `next` leads only to this site, cookies are Secure
// whenever the public URL is https, and the page gets no API key but its own account's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { FORM_COOKIE, FORM_TOKEN, withFormToken } from '../support/form-csrf.js';

const HOST = 'confab.test';
const OFFSITE = 'CSRF error: Origin checking failed - the request did not come from this site.';
type Response = Awaited<ReturnType<TestContext['app']['inject']>>;

function cookiesOf(res: Response): string[] {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : raw === undefined ? [] : [String(raw)];
}

function formTokenIn(body: string): string[] {
  return [...body.matchAll(/<input type="hidden" name="csrfmiddlewaretoken" value="([^"]*)">/g)].map((m) => m[1]!);
}

for (const dialect of testDialects()) {
  describe(`browser pages against forgery [${dialect}]`, () => {
    let ctx: TestContext;
    let joinPath: string;
    before(async () => {
      ctx = await setup(dialect);
      joinPath = new URL(expectSuccess(await ctx.as('adam').post('/invites/multiuse', {})).invite_link).pathname;
    });
    after(() => ctx.close());

    const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });
    /** A form posted as a browser would, with the token pair unless `headers` replace the cookie. */
    const post = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url,
        payload: new URLSearchParams(body).toString(),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
    const login = (headers: Record<string, string> = {}, extra: Record<string, string> = {}) =>
      post('/accounts/login/', withFormToken({ username: 'mark@confab.test', password: DEV_PASSWORD, ...extra }), headers);
    const alertOf = (res: Response) => /<p role="alert">([^<]*)<\/p>/.exec(res.body)?.[1];

    async function session(email = 'mark@confab.test') {
      const res = await post('/accounts/login/', withFormToken({ username: email, password: DEV_PASSWORD }));
      assert.equal(res.statusCode, 302, res.body);
      const values = new Map(cookiesOf(res).map((c) => c.split(';')[0]!.split('=') as [string, string]));
      return { cookie: `confab_session=${values.get('confab_session')}; csrftoken=${values.get('csrftoken')}`, csrf: values.get('csrftoken')! };
    }

    it('puts the csrftoken cookie’s value in every form, setting the cookie when the browser has none', async () => {
      const fresh = await get('/login/');
      const [cookie] = cookiesOf(fresh);
      assert.match(cookie!, /^csrftoken=[\w-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax$/);
      assert.deepEqual(formTokenIn(fresh.body), [cookie!.slice('csrftoken='.length, cookie!.indexOf(';'))]);
      // The token loaded with the page logs in.
      const res = await post('/accounts/login/', { username: 'mark@confab.test', password: DEV_PASSWORD, csrfmiddlewaretoken: formTokenIn(fresh.body)[0]! }, { cookie: cookie!.split(';')[0]! });
      assert.equal(res.statusCode, 302, res.body);
      // A browser that has the cookie keeps it.
      for (const path of ['/login/', '/devlogin/', joinPath]) {
        const page = await get(path, { cookie: FORM_COOKIE });
        assert.equal(page.statusCode, 200, path);
        assert.deepEqual(cookiesOf(page), [], path);
        assert.ok(formTokenIn(page.body).length > 0, path);
        assert.ok(formTokenIn(page.body).every((token) => token === FORM_TOKEN), path);
      }
    });

    it('refuses a login form without the matching token, and offers the form again with one', async () => {
      const noCookie = await login({ cookie: '' });
      assert.equal(noCookie.statusCode, 403);
      assert.equal(alertOf(noCookie), 'CSRF error: CSRF cookie not set.');
      const [cookie] = cookiesOf(noCookie);
      assert.match(cookie!, /^csrftoken=[\w-]{43}; /);
      assert.deepEqual(formTokenIn(noCookie.body), [cookie!.slice('csrftoken='.length, cookie!.indexOf(';'))]);
      const missing = await post('/accounts/login/', { username: 'mark@confab.test', password: DEV_PASSWORD });
      assert.equal(missing.statusCode, 403);
      assert.equal(alertOf(missing), 'CSRF error: CSRF token missing.');
      assert.deepEqual(cookiesOf(missing), []);
      const wrong = await post('/accounts/login/', { username: 'mark@confab.test', password: DEV_PASSWORD, csrfmiddlewaretoken: 'x'.repeat(43) });
      assert.equal(wrong.statusCode, 403);
      assert.equal(alertOf(wrong), 'CSRF error: CSRF token incorrect.');
      assert.deepEqual(formTokenIn(wrong.body), [FORM_TOKEN]);
    });

    it('refuses sign-up and development login forms without the matching token', async () => {
      const signup = await post(joinPath, { email: 'zed@confab.test', full_name: 'Zed', password: 'a fine password' });
      assert.equal(signup.statusCode, 403);
      assert.equal(alertOf(signup), 'CSRF error: CSRF token missing.');
      assert.deepEqual(formTokenIn(signup.body), [FORM_TOKEN]);
      assert.equal(await ctx.services.db.selectFrom('user_profile').select('id').where('delivery_email', '=', 'zed@confab.test').executeTakeFirst(), undefined);
      const local = await post('/accounts/login/local/', { direct_email: 'gus@confab.test' }, { cookie: '' });
      assert.equal(local.statusCode, 403);
      assert.equal(alertOf(local), 'CSRF error: CSRF cookie not set.');
      assert.equal(cookiesOf(local).some((c) => c.startsWith('confab_session=')), false);
    });

    it('treats a form from an opaque origin (Origin: null) as one from another site', async () => {
      const forms: [string, Record<string, string>][] = [
        ['/accounts/login/', { username: 'mark@confab.test', password: DEV_PASSWORD }],
        ['/accounts/login/local/', { direct_email: 'gus@confab.test' }],
        [joinPath, { email: 'nell@confab.test', full_name: 'Nell', password: 'a fine password' }],
      ];
      for (const [path, body] of forms) {
        const res = await post(path, withFormToken(body), { origin: 'null' });
        assert.equal(res.statusCode, 403, path);
        assert.equal(alertOf(res), OFFSITE, path);
        assert.equal(cookiesOf(res).some((c) => c.startsWith('confab_session=')), false, path);
      }
    });

    it('refuses forms the browser reports as cross-site or same-site, and takes same-origin and direct ones', async () => {
      for (const site of ['cross-site', 'same-site']) {
        const res = await login({ 'sec-fetch-site': site });
        assert.equal(res.statusCode, 403, site);
        assert.equal(alertOf(res), OFFSITE, site);
      }
      for (const site of ['same-origin', 'none']) assert.equal((await login({ 'sec-fetch-site': site, origin: `http://${HOST}` })).statusCode, 302, site);
    });

    it('refuses /json changes and logouts from an opaque origin or another site, token or not', async () => {
      const browser = await session();
      const send = (headers: Record<string, string>) =>
        ctx.app.inject({
          method: 'POST',
          url: '/json/messages',
          payload: 'type=stream&to=general&topic=forgery&content=hello',
          headers: { host: HOST, cookie: browser.cookie, 'x-csrftoken': browser.csrf, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        });
      const foreign: Record<string, string>[] = [{ origin: 'null' }, { origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }];
      for (const headers of foreign) {
        const res = await send(headers);
        assert.equal(res.statusCode, 403, JSON.stringify(headers));
        assert.deepEqual(res.json(), { result: 'error', msg: OFFSITE, code: 'CSRF_FAILED' });
      }
      assert.equal((await send({ origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' })).statusCode, 200);
      const logout = await ctx.app.inject({ method: 'POST', url: '/accounts/logout/', headers: { host: HOST, cookie: browser.cookie, 'x-csrftoken': browser.csrf, origin: 'null' } });
      assert.equal(logout.statusCode, 403);
      assert.equal(alertOf(logout), OFFSITE);
      assert.equal((await ctx.app.inject({ method: 'GET', url: '/json/users/me', headers: { host: HOST, cookie: browser.cookie } })).statusCode, 200);
    });

    it('sends `next` only to a page of this site, however it is written', async () => {
      const offsite = ['/\t/evil.example/', '/\n/evil.example/', '/\\evil.example/', '/\t\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '//evil.example', '/.//evil.example/'];
      for (const next of offsite) {
        const res = await login({}, { next });
        assert.equal(res.statusCode, 302, JSON.stringify(next));
        assert.equal(res.headers.location, '/', JSON.stringify(next));
      }
      assert.equal((await login({}, { next: '/#narrow/stream/1-general' })).headers.location, '/#narrow/stream/1-general');
      assert.equal((await login({}, { next: 'http://confab.test/#narrow/is/starred' })).headers.location, '/#narrow/is/starred');
      const page = await get(`/login/?next=${encodeURIComponent('/\t/evil.example/')}`, { cookie: FORM_COOKIE });
      assert.match(page.body, /<input type="hidden" name="next" value="\/">/);
    });

    it('marks every cookie Secure when the public URL is https, even on a plain-http hop', async () => {
      const before = ctx.services.config.externalUrl;
      ctx.services.config.externalUrl = 'https://confab.test';
      try {
        const page = await get('/login/');
        assert.match(cookiesOf(page)[0]!, /^csrftoken=[\w-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax; Secure$/);
        const res = await login();
        assert.equal(res.statusCode, 302);
        const [sessionCookie, csrfCookie] = cookiesOf(res);
        assert.match(sessionCookie!, /^confab_session=[\w-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax; Secure; HttpOnly$/);
        assert.match(csrfCookie!, /^csrftoken=[\w-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax; Secure$/);
        const cookie = [sessionCookie, csrfCookie].map((c) => c!.split(';')[0]).join('; ');
        const out = await ctx.app.inject({ method: 'POST', url: '/accounts/logout/', headers: { host: HOST, cookie, 'x-csrftoken': csrfCookie!.split(';')[0]!.slice('csrftoken='.length) } });
        assert.equal(out.statusCode, 302);
        assert.deepEqual(cookiesOf(out).map((c) => c.split('; ').slice(1).join('; ')), ['Path=/; Max-Age=0; SameSite=Lax; Secure; HttpOnly', 'Path=/; Max-Age=0; SameSite=Lax; Secure']);
      } finally {
        ctx.services.config.externalUrl = before;
      }
    });

    it("hands the page only its own account's API key, for its own password", async () => {
      const browser = await session();
      const fetchKey = (body: Record<string, string>, cookie = browser.cookie) =>
        ctx.app.inject({
          method: 'POST',
          url: '/json/fetch_api_key',
          payload: new URLSearchParams(body).toString(),
          headers: { host: HOST, cookie, 'x-csrftoken': browser.csrf, 'content-type': 'application/x-www-form-urlencoded' },
        });
      const { mark } = ctx.seed.users;
      // Another account's name is not a parameter here: the key is the session's own.
      const own = await fetchKey({ username: 'mona@confab.test', password: DEV_PASSWORD });
      assert.equal(own.statusCode, 200, own.body);
      assert.deepEqual(own.json(), { result: 'success', msg: '', api_key: mark.api_key, email: mark.delivery_email, ignored_parameters_unsupported: ['username'] });
      const wrong = await fetchKey({ password: 'not the password' });
      assert.equal(wrong.statusCode, 400);
      assert.deepEqual(wrong.json(), { result: 'error', msg: 'Password is incorrect.', code: 'BAD_REQUEST' });
      const anonymous = await fetchKey({ password: DEV_PASSWORD }, '');
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().code, 'UNAUTHORIZED');
    });
  });
}
