import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId, listedGroup } from '../support/user-groups.js';

// The reference's document (10.2) deactivates groups instead: these calls are not checked against it.
const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`DELETE /user_groups/{user_group_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const remove = (id: number, who: 'mona' | 'mark' | 'adam' | 'gus' = 'mona') => ctx.as(who).delete(`/user_groups/${id}`, {}, undocumented);

    it('deletes the group with its memberships, and takes it out of the groups it was in', async () => {
      const { mona } = ctx.seed.users;
      const inner = await createGroup(ctx, 'inner', { members: [mona.id] });
      const outer = await createGroup(ctx, 'outer', { members: [mona.id] });
      expectSuccess(await ctx.as('mona').post(`/user_groups/${outer}/subgroups`, { add: [inner] }));
      expectSuccess(await remove(inner));
      assert.equal(await listedGroup(ctx, inner), undefined);
      assert.deepEqual((await listedGroup(ctx, outer))!.direct_subgroup_ids, []);
      const left = await ctx.services.db.selectFrom('user_group_member').select('user_id').where('group_id', '=', inner).execute();
      assert.deepEqual(left, []);
    });

    it('is for moderators and above and direct members, never for system groups', async () => {
      const crew = await createGroup(ctx, 'crew', { members: [ctx.seed.users.mona.id] });
      expectError(await remove(crew, 'mark'), 'Insufficient permission');
      expectError(await remove(crew, 'gus'), 'Not allowed for guest users');
      expectError(await remove(await groupId(ctx, 'role:members'), 'adam'), 'Insufficient permission');
      expectError(await remove(999_999, 'adam'), 'Invalid user group');
      expectSuccess(await remove(crew, 'adam'));
      expectError(await remove(crew, 'adam'), 'Invalid user group');
    });

    it("keeps a group another group's can_mention_group names", async () => {
      const pingers = await createGroup(ctx, 'pingers');
      await createGroup(ctx, 'pinged', { can_mention_group: pingers });
      expectError(await remove(pingers, 'adam'), 'Cannot delete user group in use.');
      assert.ok(await listedGroup(ctx, pingers));
    });
  });
}
