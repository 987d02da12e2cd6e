import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { createOtherRealm, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { multipartBody, type MultipartPart } from '../support/multipart.js';
import { checkResponse } from '../support/openapi-check.js';

for (const dialect of testDialects()) {
  describe(`POST /dev_fetch_api_key [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect);
      await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other' });
    });
    after(() => ctx.close());

    const fetchKey = (params: Record<string, unknown>) => ctx.anonymous().post('/dev_fetch_api_key', params);

    it('answers any account by its email in development mode', async () => {
      const adam = ctx.seed.users.adam;
      const body = expectSuccess(await fetchKey({ username: 'adam@confab.test' }));
      assert.deepEqual(body, { result: 'success', msg: '', api_key: adam.api_key, email: adam.delivery_email, user_id: adam.id });
      const bot = ctx.seed.users.welcomeBot;
      assert.equal(expectSuccess(await fetchKey({ username: 'WELCOME-BOT@confab.test' })).user_id, bot.id);
    });

    it('is an error on production servers', async () => {
      ctx.services.config.dev = false;
      try {
        expectError(await fetchKey({ username: 'adam@confab.test' }), 'Endpoint not available in production.');
      } finally {
        ctx.services.config.dev = true;
      }
    });

    it('refuses unknown accounts and non-email usernames', async () => {
      expectError(await fetchKey({ username: 'nobody@confab.test' }), 'Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);
      expectError(await fetchKey({ username: 'adam' }), 'Enter a valid email address.');
      expectError(await fetchKey({}), "Missing 'username' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('points an account of another organization at its own', async () => {
      expectError(await fetchKey({ username: 'owen@other.test' }), 'Invalid subdomain', 'NONEXISTENT_SUBDOMAIN', 404);
      const res = await ctx.anonymous().post('/dev_fetch_api_key', { username: 'owen@other.test' }, { headers: { host: 'other.confab.test' } });
      assert.equal(expectSuccess(res).email, 'owen@other.test');
    });

    it('refuses deactivated accounts and organizations', async () => {
      const db = ctx.services.db;
      const gus = ctx.seed.users.gus;
      await db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', gus.id).execute();
      try {
        expectError(await fetchKey({ username: 'gus@confab.test' }), 'Account is deactivated', 'USER_DEACTIVATED', 401);
        await db.updateTable('realm').set({ deactivated: 1 }).where('id', '=', ctx.seed.realm.id).execute();
        // The organization is checked first.
        expectError(await fetchKey({ username: 'gus@confab.test' }), 'This organization has been deactivated', 'REALM_DEACTIVATED', 401);
      } finally {
        await db.updateTable('realm').set({ deactivated: 0 }).where('id', '=', ctx.seed.realm.id).execute();
        await db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', gus.id).execute();
      }
    });

    it('reads multipart/form-data bodies, refusing a file part', async () => {
      const post = async (parts: MultipartPart[]) => {
        const { payload, contentType } = multipartBody(parts);
        const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/dev_fetch_api_key', headers: { 'content-type': contentType }, payload });
        const response = { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
        checkResponse('POST', '/dev_fetch_api_key', response);
        return response;
      };
      const body = expectSuccess(await post([{ name: 'username', value: 'maya@confab.test' }, { name: 'extra', value: 'x' }]));
      assert.equal(body.user_id, ctx.seed.users.maya.id);
      assert.deepEqual(body.ignored_parameters_unsupported, ['extra']);
      const attachment = { name: 'attachment', value: Buffer.from([0, 1, 2, 255]), filename: 'blob.bin', contentType: 'application/octet-stream' };
      expectError(await post([{ name: 'username', value: 'maya@confab.test' }, attachment]), 'This endpoint does not accept file uploads');
    });
  });
}
