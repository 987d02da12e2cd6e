import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LogPushTransport, setPushTransport } from '../../src/adapters/push/index.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/me/apns_device_token [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect);
      setPushTransport(ctx.services, new LogPushTransport(undefined));
    });
    after(() => ctx.close());

    const devices = (userId: number) =>
      ctx.services.db.selectFrom('push_device_token').select(['kind', 'token', 'ios_app_id']).where('user_id', '=', userId).execute();

    it('registers an iOS device with its app id, and updates the app id on a second registration', async () => {
      const { mark } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip' }));
      expectSuccess(await ctx.as('mark').post('/users/me/apns_device_token', { token: 'c0ffee00', appid: 'org.zulip.Zulip.beta' }));
      assert.deepEqual(await devices(mark.id), [{ kind: 1, token: 'c0ffee00', ios_app_id: 'org.zulip.Zulip.beta' }]);
    });

    it('checks token and app id', async () => {
      const post = (params: Record<string, unknown>) => ctx.as('mona').post('/users/me/apns_device_token', params);
      expectError(await post({ token: '', appid: 'org.zulip.Zulip' }), 'Empty or invalid length token');
      expectError(await post({ token: 'ab'.repeat(2049), appid: 'org.zulip.Zulip' }), 'Empty or invalid length token');
      expectError(await post({ token: 'xyz has a space', appid: 'org.zulip.Zulip' }), 'Invalid APNS token');
      expectError(await post({ token: 'abc', appid: 'org.zulip.Zulip' }), 'Invalid APNS token');
      expectError(await post({ token: 'abcd', appid: 'org zulip' }), 'Invalid app ID');
      expectError(await post({ token: 'abcd', appid: '' }), 'Invalid app ID');
      expectError(await post({ token: 'abcd' }), "Missing 'appid' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await post({ appid: 'org.zulip.Zulip' }), "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING');
      assert.deepEqual(await devices(ctx.seed.users.mona.id), []);
      expectError(
        await ctx.as('welcomeBot').post('/users/me/apns_device_token', { token: 'abcd', appid: 'org.zulip.Zulip' }),
        'This endpoint does not accept bot requests.',
      );
    });
  });
}
