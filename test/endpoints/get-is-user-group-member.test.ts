import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`GET /user_groups/{user_group_id}/members/{user_id} [${dialect}]`, () => {
    let ctx: TestContext;
    let outer: number;
    before(async () => {
      ctx = await setup(dialect);
      const inner = await createGroup(ctx, 'inner', { members: [ctx.seed.users.milo.id] });
      outer = await createGroup(ctx, 'outer', { members: [ctx.seed.users.mona.id] });
      expectSuccess(await ctx.as('olivia').post(`/user_groups/${outer}/subgroups`, { add: [inner] }));
    });
    after(() => ctx.close());

    const isMember = async (userId: number, params: Record<string, unknown> = {}, id = outer) =>
      expectSuccess(await ctx.as('mark').get(`/user_groups/${id}/members/${userId}`, params)).is_user_group_member;

    it('counts members of subgroups unless direct_member_only', async () => {
      const { mona, milo, mark } = ctx.seed.users;
      assert.equal(await isMember(mona.id), true);
      assert.equal(await isMember(milo.id), true);
      assert.equal(await isMember(milo.id, { direct_member_only: true }), false);
      assert.equal(await isMember(mona.id, { direct_member_only: true }), true);
      assert.equal(await isMember(mark.id), false);
      assert.equal(await isMember(mark.id, {}, await groupId(ctx, 'role:members')), true);
    });

    it('refuses unknown groups and users, bots and deactivated users, and guests asking', async () => {
      const { mona, milo, welcomeBot } = ctx.seed.users;
      expectError(await ctx.as('mark').get(`/user_groups/999999/members/${mona.id}`), 'Invalid user group');
      expectError(await ctx.as('mark').get(`/user_groups/${outer}/members/999999`), 'No such user');
      expectError(await ctx.as('mark').get(`/user_groups/${outer}/members/${welcomeBot.id}`), 'No such user');
      expectError(await ctx.as('gus').get(`/user_groups/${outer}/members/${mona.id}`), 'Not allowed for guest users');
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', milo.id).execute();
      try {
        expectError(await ctx.as('mark').get(`/user_groups/${outer}/members/${milo.id}`), 'User is deactivated');
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', milo.id).execute();
      }
    });
  });
}
