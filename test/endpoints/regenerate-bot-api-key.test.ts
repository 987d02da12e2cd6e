import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBot, undocumented } from '../support/bots.js';
import { clientFor, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /bots/{bot_id}/api_key/regenerate [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('gives the bot a new key; the old one stops working; its administrators hear of it', async () => {
      const bot = await createBot(ctx, 'mark', 'rekeyed');
      expectSuccess(await bot.client.get('/users/me'));
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mark').post(`/bots/${bot.id}/api_key/regenerate`, {}, undocumented));
      assert.equal(body.api_key.length, 32);
      assert.notEqual(body.api_key, bot.apiKey);
      expectError(await bot.client.get('/users/me'), 'Invalid API key', 'UNAUTHORIZED', 401);
      expectSuccess(await clientFor(ctx.app, { delivery_email: bot.email, api_key: body.api_key }).get('/users/me'));
      const update = ctx.events.find((d) => d.event.type === 'realm_bot');
      assert.deepEqual(update?.event.bot, { user_id: bot.id, api_key: body.api_key });
    });

    it("is refused for others' bots", async () => {
      const bot = await createBot(ctx, 'mark', 'notyours');
      expectError(await ctx.as('mona').post(`/bots/${bot.id}/api_key/regenerate`, {}, undocumented), 'Insufficient permission');
      expectError(await ctx.as('mona').post('/bots/99999/api_key/regenerate', {}, undocumented), 'No such bot');
    });
  });
}
