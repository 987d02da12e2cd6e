import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { USER_STATE_SIZE_LIMIT } from '../../src/actions/bot-storage.js';
import { type CreatedBot, createBot, undocumented } from '../support/bots.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PUT /bot_storage [${dialect}]`, () => {
    let ctx: TestContext;
    let bot: CreatedBot;
    before(async () => {
      ctx = await setup(dialect);
      bot = await createBot(ctx, 'mark', 'counter');
    });
    after(() => ctx.close());

    const put = (storage: unknown, who = bot.client) => who.call('PUT', '/bot_storage', { storage: JSON.stringify(storage) }, undocumented);
    const get = (keys?: string[], who = bot.client) => who.get('/bot_storage', keys ? { keys: JSON.stringify(keys) } : {}, undocumented);

    it('keeps a counter the way the incrementor bot does', async () => {
      expectError(await get(['count']), 'Key does not exist.');
      for (let i = 1; i <= 3; i++) {
        const current = (await get(['count'])).body.storage?.count;
        expectSuccess(await put({ count: String(Number(current ?? 0) + 1) }));
      }
      assert.deepEqual(expectSuccess(await get(['count'])).storage, { count: '3' });
    });

    it('refuses values that are not strings, and anything but a dict', async () => {
      expectError(await put({ a: 1 }), 'storage["a"] is not a string');
      expectError(await put(['a']), 'storage is not a dict');
      expectError(await bot.client.call('PUT', '/bot_storage', {}, undocumented), "Missing 'storage' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('refuses a request that would outgrow the limit, counting keys and values, and stores nothing of it', async () => {
      await bot.client.delete('/bot_storage', {}, undocumented);
      // Larger than a request body may be: stored directly.
      const value = 'x'.repeat(USER_STATE_SIZE_LIMIT - 3 - 10);
      await ctx.services.db.insertInto('bot_storage_data').values({ bot_id: bot.id, key: 'big', value }).execute();
      expectError(
        await put({ k: 'y'.repeat(9), more: 'z' }),
        `Request exceeds storage limit by 5 characters. The limit is ${USER_STATE_SIZE_LIMIT} characters.`,
      );
      assert.deepEqual(Object.keys(expectSuccess(await get()).storage), ['big']);
      // Up to the limit exactly is fine; replacing a value counts only the difference.
      expectSuccess(await put({ k: 'y'.repeat(9) }));
      expectSuccess(await put({ k: 'y'.repeat(8) }));
      expectError(await put({ k: 'y'.repeat(11) }), `Request exceeds storage limit by 2 characters. The limit is ${USER_STATE_SIZE_LIMIT} characters.`);
      expectSuccess(await bot.client.delete('/bot_storage', {}, undocumented));
    });

    it("keeps each account's state apart", async () => {
      expectSuccess(await put({ mine: 'bot' }));
      expectSuccess(await put({ mine: 'mark' }, ctx.as('mark')));
      assert.deepEqual(expectSuccess(await get(['mine'])).storage, { mine: 'bot' });
      assert.deepEqual(expectSuccess(await get(['mine'], ctx.as('mark'))).storage, { mine: 'mark' });
    });
  });
}
