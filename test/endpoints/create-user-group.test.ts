import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { createOtherRealm, setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId, listedGroup } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`POST /user_groups/create [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const create = (params: Record<string, unknown>, who: 'mark' | 'gus' | 'welcomeBot' | 'adam' = 'mark') =>
      ctx.as(who).post('/user_groups/create', { description: '', ...params });

    it('creates a group with its members, and role:everyone may mention it by default', async () => {
      const { mona, milo } = ctx.seed.users;
      const body = expectSuccess(await create({ name: 'backend', description: 'Backend team', members: [milo.id, mona.id] }));
      assert.deepEqual(await listedGroup(ctx, body.group_id), {
        id: body.group_id,
        name: 'backend',
        description: 'Backend team',
        members: [mona.id, milo.id].sort((a, b) => a - b),
        direct_subgroup_ids: [],
        is_system_group: false,
        can_mention_group: await groupId(ctx, 'role:everyone'),
      });
    });

    it('takes can_mention_group: any group but role:internet and role:owners', async () => {
      const moderators = await groupId(ctx, 'role:moderators');
      const id = expectSuccess(await create({ name: 'mods ping', can_mention_group: moderators })).group_id;
      assert.equal((await listedGroup(ctx, id))!.can_mention_group, moderators);
      const other = await createGroup(ctx, 'pingers');
      assert.equal((await listedGroup(ctx, expectSuccess(await create({ name: 'via custom', can_mention_group: other })).group_id))!.can_mention_group, other);
      expectError(await create({ name: 'x', can_mention_group: await groupId(ctx, 'role:internet') }), "'can_mention_group' setting cannot be set to 'role:internet' group.");
      expectError(await create({ name: 'x', can_mention_group: await groupId(ctx, 'role:owners') }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
      expectError(await create({ name: 'x', can_mention_group: 999_999 }), 'Invalid user group');
    });

    it('refuses bad names with the reference texts', async () => {
      expectError(await create({ name: 'backend' }), "User group 'backend' already exists.");
      expectError(await create({ name: '   ' }), "User group name can't be empty!");
      expectError(await create({ name: 'x'.repeat(101) }), 'User group name cannot exceed 100 characters.');
      for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
        expectError(await create({ name: `${prefix}team` }), `User group name cannot start with '${prefix}'.`);
      }
      expectError(await create({ name: 'nul\u0000name' }), 'Invalid character in user group name, at position 4.');
      expectSuccess(await create({ name: 'x'.repeat(100) }));
    });

    it("refuses unknown, deactivated and other organizations' users", async () => {
      const { milo } = ctx.seed.users;
      const { owner } = await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other' });
      expectError(await create({ name: 'ghosts', members: [999_999] }), 'Invalid user ID: 999999');
      expectError(await create({ name: 'ghosts', members: [owner.id] }), `Invalid user ID: ${owner.id}`);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', milo.id).execute();
      try {
        expectError(await create({ name: 'ghosts', members: [milo.id] }), `Invalid user ID: ${milo.id}`);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', milo.id).execute();
      }
      assert.equal(await ctx.services.db.selectFrom('user_group').select('id').where('name', '=', 'ghosts').executeTakeFirst(), undefined);
    });

    it('needs description, and a name', async () => {
      expectError(await ctx.as('mark').post('/user_groups/create', { name: 'nodesc' }), "Missing 'description' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await ctx.as('mark').post('/user_groups/create', { description: '' }), "Missing 'name' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('is for the people user_group_edit_policy allows: no guests, no bots', async () => {
      expectError(await create({ name: 'guests' }, 'gus'), 'Not allowed for guest users');
      expectError(await create({ name: 'bots' }, 'welcomeBot'), 'This endpoint does not accept bot requests.');
      await setRealmSettings(ctx, { user_group_edit_policy: 2 });
      try {
        expectError(await create({ name: 'admins only' }), 'Insufficient permission');
        expectSuccess(await create({ name: 'admins only' }, 'adam'));
      } finally {
        await setRealmSettings(ctx, { user_group_edit_policy: 1 });
      }
    });
  });
}
