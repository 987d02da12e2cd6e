import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type CreatedBot, createBot, undocumented } from '../support/bots.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /bot_storage [${dialect}]`, () => {
    let ctx: TestContext;
    let bot: CreatedBot;
    before(async () => {
      ctx = await setup(dialect);
      bot = await createBot(ctx, 'mark', 'forgetful');
    });
    after(() => ctx.close());

    const keysNow = async () => Object.keys(expectSuccess(await bot.client.get('/bot_storage', {}, undocumented)).storage).sort();
    const remove = (keys?: string[]) => bot.client.delete('/bot_storage', keys ? { keys: JSON.stringify(keys) } : {}, undocumented);

    it('removes the keys asked for, all or nothing, and every key without keys', async () => {
      expectSuccess(await bot.client.call('PUT', '/bot_storage', { storage: JSON.stringify({ a: '1', b: '2', c: '3' }) }, undocumented));
      expectError(await remove(['a', 'missing']), 'Key does not exist.');
      assert.deepEqual(await keysNow(), ['a', 'b', 'c']);
      expectSuccess(await remove(['a']));
      assert.deepEqual(await keysNow(), ['b', 'c']);
      expectSuccess(await remove());
      assert.deepEqual(await keysNow(), []);
    });
  });
}
