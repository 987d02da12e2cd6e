import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LogPushTransport, setPushTransport } from '../../src/adapters/push/index.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/me/android_gcm_reg_id [${dialect}]`, () => {
    let ctx: TestContext;
    let transport: LogPushTransport;
    before(async () => {
      ctx = await setup(dialect);
      transport = new LogPushTransport(undefined);
      setPushTransport(ctx.services, transport);
    });
    after(() => ctx.close());

    const devices = (userId: number) =>
      ctx.services.db.selectFrom('push_device_token').select(['kind', 'token', 'ios_app_id', 'last_updated']).where('user_id', '=', userId).execute();

    it('keeps one row when the same device registers several times at once', async () => {
      const { milo } = ctx.seed.users;
      const answers = await Promise.all(Array.from({ length: 5 }, () => ctx.as('milo').post('/users/me/android_gcm_reg_id', { token: 'racing-token' })));
      for (const answer of answers) expectSuccess(answer);
      assert.deepEqual((await devices(milo.id)).map((d) => d.token), ['racing-token']);
      assert.equal(transport.recent.length, 5);
      transport.recent.length = 0;
    });

    it('registers a device once, refreshing it when registered again', async () => {
      const { mark } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/android_gcm_reg_id', { token: 'android-token' }));
      const first = await devices(mark.id);
      assert.deepEqual(first.map((d) => [d.kind, d.token, d.ios_app_id]), [[2, 'android-token', null]]);
      ctx.clock.advance(60);
      expectSuccess(await ctx.as('mark').post('/users/me/android_gcm_reg_id', { token: 'android-token' }));
      const again = await devices(mark.id);
      assert.equal(again.length, 1);
      assert.equal(again[0]!.last_updated, first[0]!.last_updated + 60);
      assert.deepEqual(transport.recent.map((e) => [e.kind, e.device.token, e.device.kind]), [
        ['register', 'android-token', 2],
        ['register', 'android-token', 2],
      ]);
    });

    it('checks the token', async () => {
      expectError(await ctx.as('mona').post('/users/me/android_gcm_reg_id', { token: '' }), 'Empty or invalid length token');
      expectError(await ctx.as('mona').post('/users/me/android_gcm_reg_id', { token: 'x'.repeat(4097) }), 'Empty or invalid length token');
      expectError(await ctx.as('mona').post('/users/me/android_gcm_reg_id', {}), "Missing 'token' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await ctx.as('mona').post('/users/me/android_gcm_reg_id', { token: 'a\u0000b' }), 'Empty or invalid length token');
      expectSuccess(await ctx.as('mona').post('/users/me/android_gcm_reg_id', { token: 'x'.repeat(4096) }));
      assert.equal((await devices(ctx.seed.users.mona.id)).length, 1);
    });

    it('is for people, not bots', async () => {
      expectError(await ctx.as('welcomeBot').post('/users/me/android_gcm_reg_id', { token: 'bot-token' }), 'This endpoint does not accept bot requests.');
    });
  });
}
