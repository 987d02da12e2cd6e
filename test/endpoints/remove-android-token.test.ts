import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LogPushTransport, setPushTransport } from '../../src/adapters/push/index.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /users/me/android_gcm_reg_id [${dialect}]`, () => {
    let ctx: TestContext;
    let transport: LogPushTransport;
    before(async () => {
      ctx = await setup(dialect);
      transport = new LogPushTransport(undefined);
      setPushTransport(ctx.services, transport);
    });
    after(() => ctx.close());

    const tokens = async () =>
      (await ctx.services.db.selectFrom('push_device_token').select(['user_id', 'token']).orderBy('id').execute()).map((r) => [r.user_id, r.token]);

    it('removes only the requester\'s own device of that kind', async () => {
      const { mark, mona } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/android_gcm_reg_id', { token: 'shared' }));
      expectSuccess(await ctx.as('mona').post('/users/me/android_gcm_reg_id', { token: 'shared' }));
      expectSuccess(await ctx.as('mark').post('/users/me/apns_device_token', { token: 'abcd', appid: 'org.zulip.Zulip' }));
      // An APNs token is not an Android one.
      expectError(await ctx.as('mark').delete('/users/me/android_gcm_reg_id', { token: 'abcd' }), 'Token does not exist');
      expectSuccess(await ctx.as('mark').delete('/users/me/android_gcm_reg_id', { token: 'shared' }));
      assert.deepEqual(await tokens(), [[mona.id, 'shared'], [mark.id, 'abcd']]);
      assert.deepEqual(transport.recent.at(-1)!.kind, 'unregister');
      assert.deepEqual(transport.recent.at(-1)!.device, { userId: mark.id, kind: 2, token: 'shared', iosAppId: null });
      expectError(await ctx.as('mark').delete('/users/me/android_gcm_reg_id', { token: 'shared' }), 'Token does not exist');
    });

    it('checks the token', async () => {
      expectError(await ctx.as('mark').delete('/users/me/android_gcm_reg_id', { token: '' }), 'Empty or invalid length token');
      expectError(await ctx.as('mark').delete('/users/me/android_gcm_reg_id', {}), "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await ctx.as('welcomeBot').delete('/users/me/android_gcm_reg_id', { token: 'x' }), 'This endpoint does not accept bot requests.');
    });
  });
}
