// realm_bot and realm_user events of bot administration: their shapes, who gets them, and that
// folding them into an earlier POST /register state (realm_bots included) equals a fresh fetch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { createBot, undocumented } from '../support/bots.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { fetchStateOf, verifyFolding } from '../support/register-state.js';

for (const dialect of testDialects()) {
  describe(`bot events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const verify = (watchers: DevUserName[], action: () => Promise<void>, changing: DevUserName[] = watchers) =>
      verifyFolding(ctx, { watchers, action, changing });
    const botIds = async (name: DevUserName) => ((await fetchStateOf(ctx, name)).realm_bots as Array<{ user_id: number }>).map((b) => b.user_id);

    it('folds creating an outgoing-webhook bot with defaults', async () => {
      await verify(['mark', 'olivia', 'mona'], async () => {
        await createBot(ctx, 'mark', 'folded', {
          bot_type: 3,
          payload_url: JSON.stringify('https://hooks.example.com/'),
          default_sending_stream: 'general',
        });
      });
    });

    it('folds renaming, changing defaults and services, and regenerating the key', async () => {
      const bot = await createBot(ctx, 'mark', 'changing', { bot_type: 3, payload_url: JSON.stringify('https://hooks.example.com/') });
      await verify(['mark', 'olivia'], async () => {
        expectSuccess(
          await ctx.as('mark').patch(
            `/bots/${bot.id}`,
            {
              full_name: 'Changed Bot',
              default_events_register_stream: 'engineering',
              default_all_public_streams: true,
              service_payload_url: JSON.stringify('https://other.example.com/'),
            },
            undocumented,
          ),
        );
        expectSuccess(await ctx.as('mark').post(`/bots/${bot.id}/api_key/regenerate`, {}, undocumented));
      });
    });

    it('folds handing a bot to another member', async () => {
      const bot = await createBot(ctx, 'mark', 'handover');
      await verify(['mark', 'mona', 'olivia', 'milo'], async () => {
        expectSuccess(await ctx.as('mark').patch(`/bots/${bot.id}`, { bot_owner_id: ctx.seed.users.mona.id }, undocumented));
      });
      assert.ok(!(await botIds('mark')).includes(bot.id));
      assert.ok((await botIds('mona')).includes(bot.id));
    });

    it('folds deactivating a bot and an owner with bots, and reactivating them', async () => {
      const bot = await createBot(ctx, 'milo', 'cascade');
      await verify(['milo', 'olivia', 'mark'], async () => {
        expectSuccess(await ctx.as('milo').delete(`/bots/${bot.id}`, {}, undocumented));
      });
      expectSuccess(await ctx.as('milo').post(`/users/${bot.id}/reactivate`));
      await verify(['olivia', 'mark'], async () => {
        expectSuccess(await ctx.as('adam').delete(`/users/${ctx.seed.users.milo.id}`));
      });
      await verify(['olivia', 'mark'], async () => {
        expectSuccess(await ctx.as('adam').post(`/users/${bot.id}/reactivate`));
      });
    });

    it('tells only the owner about a bot whose default stream is private', async () => {
      const { olivia, adam } = ctx.seed.users;
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'hush' }], invite_only: true }));
      ctx.clearEvents();
      const bot = await createBot(ctx, 'olivia', 'secretive', { default_sending_stream: 'hush' });
      const add = ctx.events.find((d) => d.event.type === 'realm_bot');
      assert.deepEqual(add?.users, [olivia.id]);
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').patch(`/bots/${bot.id}`, { default_sending_stream: '' }, undocumented));
      const update = ctx.events.find((d) => d.event.type === 'realm_bot');
      assert.deepEqual([...update!.users].sort((a, b) => a - b), [olivia.id, adam.id].sort((a, b) => a - b));
    });
  });
}
