import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LogPushTransport, setPushTransport } from '../../src/adapters/push/index.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /users/me/apns_device_token [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect);
      setPushTransport(ctx.services, new LogPushTransport(undefined));
    });
    after(() => ctx.close());

    it('removes the device', async () => {
      expectSuccess(await ctx.as('mark').post('/users/me/apns_device_token', { token: 'ABCDEF', appid: 'org.zulip.Zulip' }));
      expectError(await ctx.as('mona').delete('/users/me/apns_device_token', { token: 'ABCDEF' }), 'Token does not exist');
      expectSuccess(await ctx.as('mark').delete('/users/me/apns_device_token', { token: 'ABCDEF' }));
      assert.deepEqual(await ctx.services.db.selectFrom('push_device_token').selectAll().execute(), []);
      expectError(await ctx.as('mark').delete('/users/me/apns_device_token', { token: 'ABCDEF' }), 'Token does not exist');
    });

    it('checks the token', async () => {
      expectError(await ctx.as('mark').delete('/users/me/apns_device_token', { token: '' }), 'Empty or invalid length token');
      expectError(await ctx.as('mark').delete('/users/me/apns_device_token', { token: 'not hex' }), 'Invalid APNS token');
      expectError(await ctx.as('mark').delete('/users/me/apns_device_token', {}), "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
