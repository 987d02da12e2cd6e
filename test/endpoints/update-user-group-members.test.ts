import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId, listedGroup } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`POST /user_groups/{user_group_id}/members [${dialect}]`, () => {
    let ctx: TestContext;
    let crew: number;
    before(async () => {
      ctx = await setup(dialect);
      crew = await createGroup(ctx, 'crew', { members: [ctx.seed.users.mona.id] });
    });
    after(() => ctx.close());

    const update = (params: Record<string, unknown>, who: 'mona' | 'mark' | 'adam' | 'gus' = 'mona', id = crew) =>
      ctx.as(who).post(`/user_groups/${id}/members`, params);
    const members = async () => (await listedGroup(ctx, crew))!.members as number[];

    it('adds and deletes direct members, adds first, in one request', async () => {
      const { mona, mark, milo } = ctx.seed.users;
      expectSuccess(await update({ add: [mark.id, milo.id] }));
      assert.deepEqual(await members(), [mona.id, mark.id, milo.id].sort((a, b) => a - b));
      expectSuccess(await update({ add: [ctx.seed.users.maya.id], delete: [milo.id, mark.id] }));
      assert.deepEqual(await members(), [mona.id, ctx.seed.users.maya.id].sort((a, b) => a - b));
      expectSuccess(await update({ delete: [ctx.seed.users.maya.id] }));
    });

    it('refuses an empty request, present and absent members, and unknown users, changing nothing', async () => {
      const { mona, mark } = ctx.seed.users;
      expectError(await update({}), 'Nothing to do. Specify at least one of "add" or "delete".');
      expectError(await update({ add: [mona.id] }), `User ${mona.id} is already a member of this group`);
      expectError(await update({ delete: [mark.id] }), `There is no member '${mark.id}' in this user group`);
      expectError(await update({ add: [424_242] }), 'Invalid user ID: 424242');
      expectError(await update({ delete: [424_242] }), 'Invalid user ID: 424242');
      // The add succeeds, the delete fails: the request as a whole is rolled back.
      expectError(await update({ add: [mark.id], delete: [ctx.seed.users.milo.id] }), `There is no member '${ctx.seed.users.milo.id}' in this user group`);
      assert.deepEqual(await members(), [mona.id]);
    });

    it('is for moderators and above and direct members; never system groups', async () => {
      const { mark } = ctx.seed.users;
      expectError(await update({ add: [mark.id] }, 'mark'), 'Insufficient permission');
      expectError(await update({ add: [mark.id] }, 'gus'), 'Not allowed for guest users');
      expectError(await update({ add: [mark.id] }, 'adam', await groupId(ctx, 'role:members')), 'Insufficient permission');
      expectError(await update({ add: [mark.id] }, 'adam', 999_999), 'Invalid user group');
      expectSuccess(await update({ add: [mark.id] }, 'adam'));
      // Now a direct member, mark may take himself out.
      expectSuccess(await update({ delete: [mark.id] }, 'mark'));
    });
  });
}
