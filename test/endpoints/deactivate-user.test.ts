import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateRealm } from '../../src/actions/realm-create.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /users/{user_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const isActive = async (id: number) =>
      (await ctx.services.db.selectFrom('user_profile').select('is_active').where('id', '=', id).executeTakeFirstOrThrow()).is_active;

    it('lets an administrator deactivate a member and their bots', async () => {
      const { milo } = ctx.seed.users;
      const bot = await runSystemAction(ctx.services, (sys) =>
        doCreateUser(sys, ctx.seed.realm, { email: 'milo-bot@confab.test', fullName: 'Milo Bot', isBot: true, botOwnerId: milo.id }),
      );
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').delete(`/users/${milo.id}`, { deactivation_notification_comment: 'Farewell!' }));
      assert.equal(await isActive(milo.id), 0);
      assert.equal(await isActive(bot.id), 0);
      const update = ctx.events.find((d) => d.event.type === 'realm_user' && (d.event.person as any).user_id === milo.id);
      assert.deepEqual(update?.event, { type: 'realm_user', op: 'update', person: { user_id: milo.id, is_active: false } });
      assert.equal(update?.users.includes(ctx.seed.users.adam.id), true);
      expectError(await ctx.as('milo').get('/users/me'), 'Account is deactivated', 'UNAUTHORIZED', 401);
    });

    it('refuses a user already deactivated', async () => {
      expectError(await ctx.as('adam').delete(`/users/${ctx.seed.users.milo.id}`), 'User is deactivated');
    });

    it('answers "No such user" for unknown ids, bots and users of other realms', async () => {
      expectError(await ctx.as('adam').delete('/users/99999'), 'No such user');
      expectError(await ctx.as('adam').delete(`/users/${ctx.seed.users.welcomeBot.id}`), 'No such user');
      const other = await runSystemAction(ctx.services, (sys) =>
        doCreateRealm(sys, { name: 'Other', url: 'http://other.test', stringId: 'other', owner: { email: 'o@other.test', fullName: 'Other Owner' } }),
      );
      expectError(await ctx.as('adam').delete(`/users/${other.owner.id}`), 'No such user');
      assert.equal(await isActive(other.owner.id), 1);
    });

    it('is not for members or moderators', async () => {
      expectError(await ctx.as('mark').delete(`/users/${ctx.seed.users.mona.id}`), 'Insufficient permission');
      expectError(await ctx.as('maya').delete(`/users/${ctx.seed.users.mona.id}`), 'Insufficient permission');
      assert.equal(await isActive(ctx.seed.users.mona.id), 1);
    });

    it('needs an owner to deactivate an owner, and keeps the last owner', async () => {
      const { olivia } = ctx.seed.users;
      expectError(await ctx.as('adam').delete(`/users/${olivia.id}`), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await ctx.as('olivia').delete(`/users/${olivia.id}`), 'Cannot deactivate the only organization owner');
      assert.equal(await isActive(olivia.id), 1);
    });

    it('lets an owner deactivate another owner', async () => {
      const { adam } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ role: 100 }).where('id', '=', adam.id).execute();
      expectSuccess(await ctx.as('olivia').delete(`/users/${adam.id}`));
      assert.equal(await isActive(adam.id), 0);
    });

    it('only answers numeric ids', async () => {
      const res = await ctx.as('olivia').delete('/users/mona@confab.test', {}, { undocumented: true });
      expectError(res, 'Method Not Allowed', 'BAD_REQUEST', 405);
    });
  });
}
