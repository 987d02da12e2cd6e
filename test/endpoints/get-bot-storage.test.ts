import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CreatedBot, createBot, undocumented } from '../support/bots.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /bot_storage [${dialect}]`, () => {
    let ctx: TestContext;
    let bot: CreatedBot;
    before(async () => {
      ctx = await setup(dialect);
      bot = await createBot(ctx, 'mark', 'reader');
    });
    after(() => ctx.close());

    const get = (params: Record<string, unknown>) => bot.client.get('/bot_storage', params, undocumented);

    it('answers the keys asked for, or every key', async () => {
      assert.deepEqual(expectSuccess(await get({})).storage, {});
      expectSuccess(await bot.client.call('PUT', '/bot_storage', { storage: JSON.stringify({ a: '1', b: '2' }) }, undocumented));
      assert.deepEqual(expectSuccess(await get({ keys: JSON.stringify(['b']) })).storage, { b: '2' });
      assert.deepEqual(expectSuccess(await get({})).storage, { a: '1', b: '2' });
      assert.deepEqual(expectSuccess(await get({ keys: JSON.stringify([]) })).storage, {});
    });

    it('refuses an unknown key and malformed keys', async () => {
      expectError(await get({ keys: JSON.stringify(['a', 'missing']) }), 'Key does not exist.');
      expectError(await get({ keys: JSON.stringify([1]) }), 'keys[0] is not a string');
      expectError(await get({ keys: '{' }), 'keys is not valid JSON');
    });
  });
}
