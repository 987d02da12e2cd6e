import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBot, undocumented } from '../support/bots.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /bots/{bot_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const active = async (id: number) =>
      (await ctx.services.db.selectFrom('user_profile').select('is_active').where('id', '=', id).executeTakeFirstOrThrow()).is_active;

    it('deactivates the bot for its owner, telling administrators and the owner', async () => {
      const bot = await createBot(ctx, 'mark', 'retired');
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').delete(`/bots/${bot.id}`, {}, undocumented));
      assert.equal(await active(bot.id), 0);
      const update = ctx.events.find((d) => d.event.type === 'realm_bot');
      assert.deepEqual(update?.event, { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: false } });
      expectError(await bot.client.get('/users/me'), 'Account is deactivated', 'UNAUTHORIZED', 401);
      // Reactivation goes through the user routes.
      expectSuccess(await ctx.as('mark').post(`/users/${bot.id}/reactivate`));
      assert.equal(await active(bot.id), 1);
    });

    it("is refused for others' bots and for people", async () => {
      const bot = await createBot(ctx, 'mark', 'guarded');
      expectError(await ctx.as('mona').delete(`/bots/${bot.id}`, {}, undocumented), 'Insufficient permission');
      expectError(await ctx.as('adam').delete(`/bots/${ctx.seed.users.mona.id}`, {}, undocumented), 'No such bot');
      expectSuccess(await ctx.as('adam').delete(`/bots/${bot.id}`, {}, undocumented));
    });

    it("deactivating an owner deactivates their bots; reactivating one follows bot_creation_policy", async () => {
      const bot = await createBot(ctx, 'milo', 'orphan');
      expectSuccess(await ctx.as('adam').delete(`/users/${ctx.seed.users.milo.id}`));
      assert.equal(await active(bot.id), 0);
      expectSuccess(await ctx.as('olivia').patch('/realm', { bot_creation_policy: 3 }, undocumented));
      const own = await createBot(ctx, 'adam', 'adams');
      await ctx.services.db.updateTable('user_profile').set({ bot_owner_id: ctx.seed.users.mona.id, is_active: 0 }).where('id', '=', own.id).execute();
      expectError(await ctx.as('mona').post(`/users/${own.id}/reactivate`), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectSuccess(await ctx.as('adam').post(`/users/${bot.id}/reactivate`));
      expectSuccess(await ctx.as('olivia').patch('/realm', { bot_creation_policy: 1 }, undocumented));
    });
  });
}
