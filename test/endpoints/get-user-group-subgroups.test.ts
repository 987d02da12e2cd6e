import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`GET /user_groups/{user_group_id}/subgroups [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const get = (id: number, params: Record<string, unknown> = {}, who: 'mark' | 'gus' = 'mark') => ctx.as(who).get(`/user_groups/${id}/subgroups`, params);

    it('lists subgroups all the way down, or only the direct ones', async () => {
      const inner = await createGroup(ctx, 'inner');
      const middle = await createGroup(ctx, 'middle');
      const outer = await createGroup(ctx, 'outer');
      expectSuccess(await ctx.as('olivia').post(`/user_groups/${middle}/subgroups`, { add: [inner] }));
      expectSuccess(await ctx.as('olivia').post(`/user_groups/${outer}/subgroups`, { add: [middle] }));
      assert.deepEqual(expectSuccess(await get(outer)).subgroups, [inner, middle].sort((a, b) => a - b));
      assert.deepEqual(expectSuccess(await get(outer, { direct_subgroup_only: true })).subgroups, [middle]);
      assert.deepEqual(expectSuccess(await get(inner)).subgroups, []);
    });

    it('follows the system groups by role: role:moderators holds administrators and owners', async () => {
      const [admins, owners] = [await groupId(ctx, 'role:administrators'), await groupId(ctx, 'role:owners')];
      const moderators = await groupId(ctx, 'role:moderators');
      assert.deepEqual(expectSuccess(await get(moderators)).subgroups, [admins, owners].sort((a, b) => a - b));
      assert.deepEqual(expectSuccess(await get(moderators, { direct_subgroup_only: true })).subgroups, [admins]);
    });

    it('refuses unknown groups and guests', async () => {
      expectError(await get(999_999), 'Invalid user group');
      expectError(await get(await groupId(ctx, 'role:owners'), {}, 'gus'), 'Not allowed for guest users');
    });
  });
}
