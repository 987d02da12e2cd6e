import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateRealm } from '../../src/actions/realm-create.js';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`HTTP Basic authentication [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const raw = (authorization: string | null) => new ApiClient(ctx.app, authorization);
    const expect401 = (res: Awaited<ReturnType<ApiClient['get']>>, msg: string) => {
      expectError(res, msg, 'UNAUTHORIZED', 401);
      assert.equal(res.headers['www-authenticate'], 'Basic realm="zulip"');
    };

    it('accepts email and API key', async () => {
      const body = expectSuccess(await ctx.as('mark').get('/users/me'));
      assert.equal(body.email, 'mark@confab.test');
    });

    it('accepts the email in any case', async () => {
      const mark = ctx.seed.users.mark;
      expectSuccess(await raw(ApiClient.basic('MARK@Confab.Test', mark.api_key)).get('/users/me'));
    });

    it('refuses a request without credentials', async () => {
      expect401(await raw(null).get('/users/me'), 'Not logged in: API authentication or user session required');
    });

    it('refuses a non-Basic scheme with a plain 400', async () => {
      expectError(await raw('Bearer abc').get('/users/me'), 'This endpoint requires HTTP basic authentication.');
    });

    it('refuses undecodable credentials', async () => {
      expect401(await raw('Basic bm9jb2xvbg==').get('/users/me'), 'Invalid authorization header for basic auth');
    });

    it('refuses a key of the wrong length', async () => {
      expect401(await raw(ApiClient.basic('mark@confab.test', 'short')).get('/users/me'), 'Malformed API key');
    });

    it('refuses a wrong key and an unknown email alike', async () => {
      const wrong = 'a'.repeat(32);
      expect401(await raw(ApiClient.basic('mark@confab.test', wrong)).get('/users/me'), 'Invalid API key');
      const mona = ctx.seed.users.mona;
      expect401(await raw(ApiClient.basic('nobody@confab.test', mona.api_key)).get('/users/me'), 'Invalid API key');
      // Another user's key does not work with this email.
      expect401(await raw(ApiClient.basic('mark@confab.test', mona.api_key)).get('/users/me'), 'Invalid API key');
    });

    it("refuses a user of another organization with the other organization's host", async () => {
      const { owner } = await runSystemAction(ctx.services, (sys) =>
        doCreateRealm(sys, { name: 'Elsewhere', url: 'http://elsewhere.test', stringId: 'elsewhere', owner: { email: 'eve@elsewhere.test', fullName: 'Eve' } }),
      );
      const eve = raw(ApiClient.basic('eve@elsewhere.test', owner.api_key));
      expect401(await eve.get('/users/me', {}, { headers: { host: 'confab.test' } }), 'Account is not associated with this subdomain');
      const body = expectSuccess(await eve.get('/users/me', {}, { headers: { host: 'elsewhere.test' } }));
      assert.equal(body.email, 'eve@elsewhere.test');
      // Mark's key says nothing at the other organization's address.
      expect401(await ctx.as('mark').get('/users/me', {}, { headers: { host: 'elsewhere.test' } }), 'Account is not associated with this subdomain');
    });

    it('refuses a deactivated user and a deactivated realm', async () => {
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
      expect401(await ctx.as('milo').get('/users/me'), 'Account is deactivated');
      await ctx.services.db.updateTable('realm').set({ deactivated: 1 }).execute();
      expect401(await ctx.as('mark').get('/users/me'), 'This organization has been deactivated');
      await ctx.services.db.updateTable('realm').set({ deactivated: 0 }).execute();
      await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', ctx.seed.users.milo.id).execute();
    });
  });

  describe(`Unknown routes and methods [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers a JSON 404 for an unknown route', async () => {
      expectError(await ctx.as('mark').get('/no/such/route', {}, { undocumented: true }), 'Not Found', 'BAD_REQUEST', 404);
    });

    it('answers 405 with the allowed methods', async () => {
      const res = await ctx.as('mark').post('/server_settings', {}, { undocumented: true });
      expectError(res, 'Method Not Allowed', 'BAD_REQUEST', 405);
      assert.deepEqual(res.body.allowed_methods, ['GET']);
    });
  });
}
