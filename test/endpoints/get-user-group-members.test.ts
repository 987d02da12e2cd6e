import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`GET /user_groups/{user_group_id}/members [${dialect}]`, () => {
    let ctx: TestContext;
    let outer: number;
    before(async () => {
      ctx = await setup(dialect);
      const { mona, milo } = ctx.seed.users;
      const inner = await createGroup(ctx, 'inner', { members: [milo.id] });
      outer = await createGroup(ctx, 'outer', { members: [mona.id] });
      expectSuccess(await ctx.as('olivia').post(`/user_groups/${outer}/subgroups`, { add: [inner, await groupId(ctx, 'role:administrators')] }));
    });
    after(() => ctx.close());

    const get = (id: number, params: Record<string, unknown> = {}, who: 'mark' | 'gus' | 'welcomeBot' = 'mark') =>
      ctx.as(who).get(`/user_groups/${id}/members`, params);

    it('lists members through every subgroup, or only the direct ones', async () => {
      const { mona, milo, adam, olivia } = ctx.seed.users;
      const all = [mona.id, milo.id, adam.id, olivia.id].sort((a, b) => a - b);
      assert.deepEqual(expectSuccess(await get(outer)).members, all);
      assert.deepEqual(expectSuccess(await get(outer, { direct_member_only: false })).members, all);
      assert.deepEqual(expectSuccess(await get(outer, { direct_member_only: true })).members, [mona.id]);
    });

    it('answers for system groups by role', async () => {
      const { adam, olivia } = ctx.seed.users;
      const admins = await groupId(ctx, 'role:administrators');
      assert.deepEqual(expectSuccess(await get(admins)).members, [adam.id, olivia.id].sort((a, b) => a - b));
      assert.deepEqual(expectSuccess(await get(admins, { direct_member_only: true })).members, [adam.id]);
    });

    it('refuses unknown groups, guests and bots', async () => {
      expectError(await get(999_999), 'Invalid user group');
      expectError(await get(outer, { direct_member_only: 1 }), 'direct_member_only is not a boolean');
      expectError(await get(outer, {}, 'gus'), 'Not allowed for guest users');
      expectError(await get(outer, {}, 'welcomeBot'), 'This endpoint does not accept bot requests.');
    });
  });
}
