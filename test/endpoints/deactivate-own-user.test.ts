import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateRealm } from '../../src/actions/realm-create.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import { clientFor, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /users/me [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const isActive = async (id: number) =>
      (await ctx.services.db.selectFrom('user_profile').select('is_active').where('id', '=', id).executeTakeFirstOrThrow()).is_active;

    it('deactivates the requester and their bots, and tells the realm', async () => {
      const { mark, realm } = { mark: ctx.seed.users.mark, realm: ctx.seed.realm };
      const bot = await runSystemAction(ctx.services, (sys) =>
        doCreateUser(sys, realm, { email: 'mark-bot@confab.test', fullName: 'Mark Bot', isBot: true, botOwnerId: mark.id }),
      );
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').delete('/users/me'));
      assert.equal(await isActive(mark.id), 0);
      assert.equal(await isActive(bot.id), 0);

      const updates = ctx.events.filter((d) => d.event.type === 'realm_user' && d.event.op === 'update');
      assert.deepEqual(
        updates.map((d) => d.event.person),
        [
          { user_id: bot.id, is_active: false },
          { user_id: mark.id, is_active: false },
        ],
      );
      const audience = updates[1]!.users;
      assert.equal(audience.includes(mark.id), false);
      assert.equal(audience.includes(ctx.seed.users.gus.id), true);
      const botEvent = ctx.events.find((d) => d.event.type === 'realm_bot');
      assert.deepEqual(botEvent?.event, { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: false } });

      expectError(await ctx.as('mark').get('/users/me'), 'Account is deactivated', 'UNAUTHORIZED', 401);
      const members = expectSuccess(await ctx.as('mona').get(`/streams/${ctx.seed.streams.general.id}/members`)).subscribers;
      assert.equal(members.includes(mark.id), false);
    });

    it('refuses the only organization owner', async () => {
      const res = await ctx.as('olivia').delete('/users/me');
      const body = expectError(res, 'Cannot deactivate the only organization owner', 'CANNOT_DEACTIVATE_LAST_USER');
      assert.equal(body.is_last_owner, true);
      assert.equal(body.entity, 'organization owner');
      assert.equal(await isActive(ctx.seed.users.olivia.id), 1);
    });

    it('lets an owner go when another owner remains', async () => {
      await ctx.services.db.updateTable('user_profile').set({ role: 100 }).where('id', '=', ctx.seed.users.adam.id).execute();
      expectSuccess(await ctx.as('adam').delete('/users/me'));
      assert.equal(await isActive(ctx.seed.users.adam.id), 0);
    });

    it('refuses the only user of an organization', async () => {
      const { owner } = await runSystemAction(ctx.services, (sys) =>
        doCreateRealm(sys, { name: 'Solo', url: 'http://solo.test', stringId: 'solo', owner: { email: 'solo@solo.test', fullName: 'Solo Owner' } }),
      );
      const res = await clientFor(ctx.app, owner).delete('/users/me', {}, { headers: { host: 'solo.test' } });
      const body = expectError(res, 'Cannot deactivate the only user', 'CANNOT_DEACTIVATE_LAST_USER');
      assert.equal(body.is_last_owner, false);
      assert.equal(body.entity, 'user');
    });
  });
}
