import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId, listedGroup } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`POST /user_groups/{user_group_id}/subgroups [${dialect}]`, () => {
    let ctx: TestContext;
    let a: number;
    let b: number;
    let c: number;
    before(async () => {
      ctx = await setup(dialect);
      const members = [ctx.seed.users.mona.id];
      a = await createGroup(ctx, 'a', { members });
      b = await createGroup(ctx, 'b', { members });
      c = await createGroup(ctx, 'c', { members });
    });
    after(() => ctx.close());

    const update = (id: number, params: Record<string, unknown>, who: 'mona' | 'mark' | 'adam' | 'welcomeBot' = 'mona') =>
      ctx.as(who).post(`/user_groups/${id}/subgroups`, params);
    const subgroups = async (id: number) => (await listedGroup(ctx, id))!.direct_subgroup_ids as number[];

    it('adds and deletes direct subgroups, system groups included', async () => {
      const members = await groupId(ctx, 'role:members');
      expectSuccess(await update(a, { add: [b, members] }));
      assert.deepEqual(await subgroups(a), [b, members].sort((x, y) => x - y));
      expectSuccess(await update(a, { delete: [members] }));
      expectSuccess(await update(b, { add: [c] }));
      assert.deepEqual([await subgroups(a), await subgroups(b)], [[b], [c]]);
    });

    it('refuses cycles: a group inside itself, or inside its own subgroups', async () => {
      // a contains b contains c.
      expectError(await update(a, { add: [a] }), `User group ${a} is already a subgroup of one of the passed subgroups.`);
      expectError(await update(c, { add: [a] }), `User group ${c} is already a subgroup of one of the passed subgroups.`);
      expectError(await update(b, { add: [a] }), `User group ${b} is already a subgroup of one of the passed subgroups.`);
      assert.deepEqual([await subgroups(a), await subgroups(b), await subgroups(c)], [[b], [c], []]);
    });

    it('refuses an empty request, present and absent subgroups, and unknown groups', async () => {
      expectError(await update(a, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
      expectError(await update(a, { add: [b] }), `User group ${b} is already a subgroup of this group.`);
      expectError(await update(a, { delete: [c] }), `User group ${c} is not a subgroup of this group.`);
      expectError(await update(a, { add: [999_999] }), 'Invalid user group ID: 999999');
      expectError(await update(999_999, { add: [c] }), 'Invalid user group');
      // The add is undone when the delete fails.
      expectError(await update(a, { add: [c], delete: [999_999] }), 'Invalid user group ID: 999999');
      assert.deepEqual(await subgroups(a), [b]);
    });

    it('is for moderators and above and direct members; never system groups', async () => {
      expectError(await update(a, { add: [c] }, 'mark'), 'Insufficient permission');
      expectError(await update(a, { add: [c] }, 'welcomeBot'), 'This endpoint does not accept bot requests.');
      expectError(await update(await groupId(ctx, 'role:members'), { add: [c] }, 'adam'), 'Insufficient permission');
      expectSuccess(await update(a, { add: [c] }, 'adam'));
    });
  });
}
