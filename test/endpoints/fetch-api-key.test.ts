import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { type ApiResponse, expectError, expectSuccess } from '../support/client.js';
import { createOtherRealm, OTHER_HOST, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { checkResponse } from '../support/openapi-check.js';

for (const dialect of testDialects()) {
  describe(`POST /fetch_api_key [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect);
      await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other', password: 'elsewhere-pw' });
    });
    after(() => ctx.close());

    const login = (params: Record<string, unknown>, headers?: Record<string, string>) =>
      ctx.anonymous().post('/fetch_api_key', params, { headers });
    const expectAuthFailed = (res: ApiResponse) =>
      expectError(res, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);

    it('answers the API key, real email and id for the right password', async () => {
      const mark = ctx.seed.users.mark;
      const body = expectSuccess(await login({ username: 'mark@confab.test', password: DEV_PASSWORD }));
      assert.deepEqual(body, { result: 'success', msg: '', api_key: mark.api_key, email: mark.delivery_email, user_id: mark.id });
    });

    it('matches the email in any case and answers the stored spelling', async () => {
      const body = expectSuccess(await login({ username: 'Mona@CONFAB.test', password: DEV_PASSWORD }));
      assert.equal(body.email, 'mona@confab.test');
      assert.equal(body.api_key, ctx.seed.users.mona.api_key);
    });

    it('refuses a wrong password, an unknown email and an empty password alike', async () => {
      const wrong = await login({ username: 'mark@confab.test', password: 'not-it' });
      expectAuthFailed(wrong);
      // Unlike a failed Basic authentication, this answer asks for no credentials.
      assert.equal(wrong.headers['www-authenticate'], undefined);
      expectAuthFailed(await login({ username: 'nobody@confab.test', password: DEV_PASSWORD }));
      expectAuthFailed(await login({ username: 'mark@confab.test', password: '' }));
    });

    it('refuses accounts without a password (bots)', async () => {
      expectAuthFailed(await login({ username: 'welcome-bot@confab.test', password: '' }));
      expectAuthFailed(await login({ username: 'welcome-bot@confab.test', password: 'anything' }));
    });

    it('refuses a username that is not an email address', async () => {
      expectError(await login({ username: 'mark', password: DEV_PASSWORD }), 'Enter a valid email address.');
      expectError(await login({ username: 'a b@confab.test', password: 'x' }), 'Enter a valid email address.');
      expectError(await login({ username: `${'m'.repeat(250)}@confab.test`, password: 'x' }), 'Enter a valid email address.');
    });

    it('requires both parameters', async () => {
      const res = await login({ username: 'mark@confab.test' });
      expectError(res, "Missing 'password' argument", 'REQUEST_VARIABLE_MISSING');
      assert.equal(res.body.var_name, 'password');
      expectError(await login({ password: DEV_PASSWORD }), "Missing 'username' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('reports a deactivated account only to someone who knows its password', async () => {
      const milo = ctx.seed.users.milo;
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', milo.id).execute();
      try {
        const res = await login({ username: 'milo@confab.test', password: DEV_PASSWORD });
        expectError(res, 'Account is deactivated', 'USER_DEACTIVATED', 401);
        expectAuthFailed(await login({ username: 'milo@confab.test', password: 'guess' }));
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', milo.id).execute();
      }
    });

    it('reports a deactivated organization', async () => {
      const realmId = ctx.seed.realm.id;
      await ctx.services.db.updateTable('realm').set({ deactivated: 1 }).where('id', '=', realmId).execute();
      try {
        const res = await login({ username: 'mark@confab.test', password: DEV_PASSWORD });
        expectError(res, 'This organization has been deactivated', 'REALM_DEACTIVATED', 401);
      } finally {
        await ctx.services.db.updateTable('realm').set({ deactivated: 0 }).where('id', '=', realmId).execute();
      }
    });

    it('serves the organization of the Host header, and points elsewhere-accounts at their own', async () => {
      const body = expectSuccess(await login({ username: 'owen@other.test', password: 'elsewhere-pw' }, { host: OTHER_HOST }));
      assert.equal(body.email, 'owen@other.test');
      const wrongHost = await login({ username: 'owen@other.test', password: 'elsewhere-pw' });
      expectError(wrongHost, 'Invalid subdomain', 'NONEXISTENT_SUBDOMAIN', 404);
      expectAuthFailed(await login({ username: 'owen@other.test', password: 'guess' }));
      const markElsewhere = await login({ username: 'mark@confab.test', password: DEV_PASSWORD }, { host: OTHER_HOST });
      expectError(markElsewhere, 'Invalid subdomain', 'NONEXISTENT_SUBDOMAIN', 404);
      expectAuthFailed(await login({ username: 'mark@confab.test', password: 'guess' }, { host: OTHER_HOST }));
    });

    it('lists parameters it does not know', async () => {
      const body = expectSuccess(await login({ username: 'mark@confab.test', password: DEV_PASSWORD, remember: true }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['remember']);
    });

    it('reads multipart/form-data bodies as zulip-js sends them', async () => {
      const { payload, contentType } = multipartBody({ username: 'mark@confab.test', password: DEV_PASSWORD, extra: 'x' });
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/fetch_api_key',
        headers: { 'content-type': contentType },
        payload,
      });
      const response = { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
      checkResponse('POST', '/fetch_api_key', response);
      const body = expectSuccess(response);
      assert.equal(body.api_key, ctx.seed.users.mark.api_key);
      assert.deepEqual(body.ignored_parameters_unsupported, ['extra']);

      const wrong = multipartBody({ username: 'mark@confab.test', password: 'wrong' });
      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/fetch_api_key',
        headers: { 'content-type': wrong.contentType },
        payload: wrong.payload,
      });
      expectAuthFailed({ status: refused.statusCode, body: JSON.parse(refused.body), headers: refused.headers });
    });
  });
}
