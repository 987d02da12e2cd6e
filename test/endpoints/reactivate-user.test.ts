import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/{user_id}/reactivate [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const row = (id: number) => ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const makeBot = (email: string, fullName: string, ownerId: number) =>
      runSystemAction(ctx.services, (sys) => doCreateUser(sys, ctx.seed.realm, { email, fullName, isBot: true, botOwnerId: ownerId }));

    it('brings a deactivated user back and tells the realm and their streams', async () => {
      const { milo } = ctx.seed.users;
      expectSuccess(await ctx.as('adam').delete(`/users/${milo.id}`));
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').post(`/users/${milo.id}/reactivate`));
      assert.equal((await row(milo.id)).is_active, 1);
      const update = ctx.events.find((d) => d.event.type === 'realm_user');
      assert.deepEqual(update?.event, { type: 'realm_user', op: 'update', person: { user_id: milo.id, is_active: true } });
      const peers = ctx.events.filter((d) => d.event.op === 'peer_add');
      const { general, engineering, design } = ctx.seed.streams;
      assert.deepEqual(
        peers.map((d) => (d.event.stream_ids as number[])[0]).sort((a, b) => a - b),
        [general.id, engineering.id, design.id].sort((a, b) => a - b),
      );
      for (const peer of peers) assert.deepEqual(peer.event.user_ids, [milo.id]);
      expectSuccess(await ctx.as('milo').get('/users/me'));
      const members = expectSuccess(await ctx.as('mark').get(`/streams/${design.id}/members`)).subscribers;
      assert.equal(members.includes(milo.id), true);
    });

    it('changes nothing for an active user', async () => {
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').post(`/users/${ctx.seed.users.mona.id}/reactivate`));
      assert.deepEqual(ctx.events, []);
    });

    it('is for administrators, and for the owner of a bot', async () => {
      const { mark, mona } = ctx.seed.users;
      expectSuccess(await ctx.as('adam').delete(`/users/${mona.id}`));
      expectError(await ctx.as('mark').post(`/users/${mona.id}/reactivate`), 'Insufficient permission');
      assert.equal((await row(mona.id)).is_active, 0);

      const bot = await makeBot('mark-bot@confab.test', 'Mark Bot', mark.id);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', bot.id).execute();
      expectSuccess(await ctx.as('mark').post(`/users/${bot.id}/reactivate`));
      assert.equal((await row(bot.id)).is_active, 1);
    });

    it('answers "No such user" for unknown ids', async () => {
      expectError(await ctx.as('adam').post('/users/99999/reactivate'), 'No such user');
    });

    it('refuses a bot whose name an active user has taken meanwhile', async () => {
      const bot = await makeBot('echo-bot@confab.test', 'Echo', ctx.seed.users.olivia.id);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', bot.id).execute();
      await makeBot('echo-two@confab.test', 'Echo', ctx.seed.users.olivia.id);
      expectError(
        await ctx.as('adam').post(`/users/${bot.id}/reactivate`),
        'There is already an active bot named "Echo" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
      );
    });

    it('hands a bot whose owner is gone to whoever reactivates it', async () => {
      const { maya, adam } = ctx.seed.users;
      const bot = await makeBot('maya-bot@confab.test', 'Maya Bot', maya.id);
      expectSuccess(await ctx.as('adam').delete(`/users/${maya.id}`));
      assert.equal((await row(bot.id)).is_active, 0);
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').post(`/users/${bot.id}/reactivate`));
      assert.equal((await row(bot.id)).bot_owner_id, adam.id);
      const ownerChange = ctx.events.find((d) => (d.event.person as any)?.bot_owner_id !== undefined);
      assert.deepEqual(ownerChange?.event.person, { user_id: bot.id, bot_owner_id: adam.id });
    });
  });
}
