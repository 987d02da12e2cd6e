// Serving the web client: the HTML entry at / only with a session and never cached, the login page
// otherwise, hashed assets cached for good, and nothing outside the assets folder.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { registerWebClient } from '../../src/http/web-client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { FORM_COOKIE, withFormToken } from '../support/form-csrf.js';

const HOST = 'confab.test';
const ENTRY = '<!doctype html><title>Confab</title><script type="module" src="/static/web/assets/index-AbC123.js"></script>';

for (const dialect of testDialects()) {
  describe(`web client serving [${dialect}]`, () => {
    let ctx: TestContext;
    let app: FastifyInstance;
    let cookie: string;
    const dir = mkdtempSync(join(tmpdir(), 'confab-web-dist-'));

    before(async () => {
      ctx = await setup(dialect);
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), ENTRY);
      writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log(1)');
      writeFileSync(join(dir, 'assets', 'index-DeF456.css'), 'body{}');
      writeFileSync(join(dir, 'secret.txt'), 'not an asset');
      app = Fastify();
      await app.register(formbody);
      registerWebClient(app, ctx.services, dir);
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/accounts/login/',
        payload: new URLSearchParams(withFormToken({ username: 'mark@confab.test', password: DEV_PASSWORD })).toString(),
        headers: { host: HOST, cookie: FORM_COOKIE, 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(login.statusCode, 302);
      const raw = login.headers['set-cookie'] as string[];
      cookie = raw.map((c) => c.split(';')[0]).join('; ');
    });
    after(async () => {
      await app.close();
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const get = (url: string, withSession: boolean) => app.inject({ method: 'GET', url, headers: { host: HOST, ...(withSession ? { cookie } : {}) } });

    it('sends a browser without a session to the login page', async () => {
      const res = await get('/', false);
      assert.equal(res.statusCode, 302);
      assert.equal(res.headers.location, '/login/');
      assert.equal(res.headers['cache-control'], 'no-store');
      const stale = await app.inject({ method: 'GET', url: '/', headers: { host: HOST, cookie: 'confab_session=nope' } });
      assert.equal(stale.statusCode, 302);
      assert.equal(stale.headers.location, '/login/');
    });

    it('serves the HTML entry to a browser with a session, never cached', async () => {
      const res = await get('/', true);
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, ENTRY);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      // Scripts only from this server; styles inline too, as rendered messages carry style attributes.
      assert.equal(
        res.headers['content-security-policy'],
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' http://confab.test; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
      );
    });

    it('lets the page load gravatars only when the server uses them', async () => {
      ctx.services.config.enableGravatar = true;
      try {
        const policy = String((await get('/', true)).headers['content-security-policy']);
        assert.match(policy, /; img-src 'self' http:\/\/confab\.test https:\/\/secure\.gravatar\.com; /);
      } finally {
        ctx.services.config.enableGravatar = false;
      }
    });

    it('serves hashed assets as immutable', async () => {
      const js = await get('/static/web/assets/index-AbC123.js', false);
      assert.equal(js.statusCode, 200);
      assert.equal(js.body, 'console.log(1)');
      assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
      const css = await get('/static/web/assets/index-DeF456.css', true);
      assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    });

    it('answers 404 for a missing asset, an unknown type, and anything outside the assets folder', async () => {
      for (const url of ['/static/web/assets/index-Missing.js', '/static/web/assets/notes.exe', '/static/web/assets/..%2Fsecret.txt', '/static/web/assets/..%2F..%2Fpackage.json', '/static/web/index.html']) {
        const res = await get(url, true);
        assert.equal(res.statusCode, 404, url);
      }
    });

    it('says the client is not built when dist/web is missing', async () => {
      const bare = Fastify();
      registerWebClient(bare, ctx.services, join(dir, 'nowhere'));
      const res = await bare.inject({ method: 'GET', url: '/', headers: { host: HOST, cookie } });
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /npm run build/);
      await bare.close();
    });
  });
}
