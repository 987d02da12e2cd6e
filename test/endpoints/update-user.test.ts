import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import type { DevUserName } from '../../src/dev-seed.js';

for (const dialect of testDialects()) {
  describe(`PATCH /users/{user_id} [${dialect}]`, () => {
    let ctx: TestContext;
    let phone: number;
    before(async () => {
      ctx = await setup(dialect);
      phone = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Phone', field_type: 1 })).id;
    });
    after(() => ctx.close());

    const update = (who: DevUserName, target: DevUserName | number, params: Record<string, unknown>) =>
      ctx.as(who as 'adam').patch(`/users/${typeof target === 'number' ? target : ctx.seed.users[target].id}`, params);
    const get = async (target: DevUserName) =>
      expectSuccess(await ctx.as('adam').get(`/users/${ctx.seed.users[target].id}`, { include_custom_profile_fields: true })).user;
    const groupsOf = async (target: DevUserName) => {
      const groups = expectSuccess(await ctx.as('adam').get('/user_groups')).user_groups as Array<{ id: number; name: string; members: number[] }>;
      return groups.filter((g) => g.members.includes(ctx.seed.users[target].id)).map((g) => g.name);
    };
    const groupId = async (name: string) =>
      (expectSuccess(await ctx.as('adam').get('/user_groups')).user_groups as Array<{ id: number; name: string }>).find((g) => g.name === name)!.id;

    it('renames a user and tells everyone', async () => {
      const mona = ctx.seed.users.mona.id;
      ctx.clearEvents();
      expectSuccess(await update('adam', 'mona', { full_name: '  Mona Lisa ' }));
      assert.equal((await get('mona')).full_name, 'Mona Lisa');
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'realm_user', op: 'update', person: { user_id: mona, full_name: 'Mona Lisa' } }]);
      // A blank name is passed over; a bad one refused.
      ctx.clearEvents();
      expectSuccess(await update('adam', 'mona', { full_name: '  ' }));
      assert.equal(ctx.events.length, 0);
      expectError(await update('adam', 'mona', { full_name: 'x' }), 'Name too short!');
      expectError(await update('adam', 'mona', { full_name: 'x'.repeat(101) }), 'Name too long!');
      expectError(await update('adam', 'mona', { full_name: 'Mona *' }), 'Invalid characters in name!');
    });

    it('changes a role: role groups follow, full membership too', async () => {
      const milo = ctx.seed.users.milo.id;
      assert.deepEqual(await groupsOf('milo'), ['role:members', 'role:fullmembers']);
      const [members, fullmembers, moderators] = await Promise.all(['role:members', 'role:fullmembers', 'role:moderators'].map(groupId));
      ctx.clearEvents();
      expectSuccess(await update('adam', 'milo', { role: 300 }));
      assert.deepEqual(ctx.events.map((d) => d.event), [
        { type: 'realm_user', op: 'update', person: { user_id: milo, role: 300 } },
        { type: 'user_group', op: 'remove_members', group_id: members, user_ids: [milo] },
        { type: 'user_group', op: 'add_members', group_id: moderators, user_ids: [milo] },
        { type: 'user_group', op: 'remove_members', group_id: fullmembers, user_ids: [milo] },
      ]);
      const user = await get('milo');
      assert.deepEqual([user.role, user.is_admin, user.is_owner, user.is_guest], [300, false, false, false]);
      assert.deepEqual(await groupsOf('milo'), ['role:moderators']);
      ctx.clearEvents();
      expectSuccess(await update('adam', 'milo', { role: 300 }));
      assert.equal(ctx.events.length, 0);
      expectSuccess(await update('adam', 'milo', { role: 400 }));
      assert.deepEqual(ctx.events.map((d) => `${d.event.type}/${d.event.op}`), [
        'realm_user/update',
        'user_group/remove_members',
        'user_group/add_members',
        'user_group/add_members',
      ]);
      assert.deepEqual(await groupsOf('milo'), ['role:members', 'role:fullmembers']);
    });

    it('keeps owners to owners, and the last owner an owner', async () => {
      expectError(await update('adam', 'mona', { role: 100 }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await update('adam', 'olivia', { role: 200 }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await update('olivia', 'olivia', { role: 200 }), 'The owner permission cannot be removed from the only organization owner.');
      expectSuccess(await update('olivia', 'mona', { role: 100 }));
      assert.equal((await get('mona')).is_owner, true);
      expectSuccess(await update('olivia', 'mona', { role: 600 }));
      assert.deepEqual([(await get('mona')).role, (await get('mona')).is_guest], [600, true]);
      expectSuccess(await update('olivia', 'mona', { role: 400 }));
    });

    it('checks the role and the caller', async () => {
      expectError(await update('adam', 'mona', { role: 500 }), 'Invalid role');
      expectError(await update('adam', 'mona', { role: 'admin' }), 'role is not valid JSON');
      expectError(await update('mark', 'mona', { role: 200 }), 'Insufficient permission');
      expectError(await update('mark', 'mona', { full_name: 'Mona Mark' }), 'Insufficient permission');
      expectError(await update('adam', 99999, { full_name: 'Nobody Here' }), 'No such user');
      const res = await ctx.as('adam').patch('/users/99999999999', { full_name: 'Who Knows' });
      assert.equal(res.status, 404);
    });

    it('sets and clears profile values', async () => {
      const mona = ctx.seed.users.mona.id;
      ctx.clearEvents();
      expectSuccess(await update('adam', 'mona', { profile_data: [{ id: phone, value: '123' }] }));
      assert.deepEqual((await get('mona')).profile_data, { [phone]: { value: '123', rendered_value: '<p>123</p>' } });
      assert.deepEqual(ctx.events.map((d) => d.event.person), [
        { user_id: mona, custom_profile_field: { id: phone, value: '123', rendered_value: '<p>123</p>' } },
      ]);
      expectSuccess(await update('adam', 'mona', { profile_data: [{ id: phone, value: null }] }));
      assert.deepEqual((await get('mona')).profile_data, {});
      expectSuccess(await update('adam', 'mona', { profile_data: [{ id: phone, value: '' }] }));
      expectError(await update('adam', 'mona', { profile_data: [{ id: phone, value: 'x'.repeat(51) }] }), 'Phone is too long (limit: 50 characters)');
      expectError(await update('adam', 'mona', { profile_data: [{ id: 99999, value: null }] }), 'Field id 99999 not found.');
      expectError(await update('adam', 'mona', { profile_data: [{ id: phone, value: 1 }] }), 'profile_data[0]["value"] is not an allowed_type');
    });

    it('changes a deactivated user\'s role without group events', async () => {
      const mona = ctx.seed.users.mona.id;
      expectSuccess(await ctx.as('adam').delete(`/users/${mona}`));
      ctx.clearEvents();
      expectSuccess(await update('adam', 'mona', { role: 300 }));
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'realm_user', op: 'update', person: { user_id: mona, role: 300 } }]);
      expectSuccess(await ctx.as('adam').post(`/users/${mona}/reactivate`));
      assert.deepEqual(await groupsOf('mona'), ['role:moderators']);
      expectSuccess(await update('adam', 'mona', { role: 400 }));
    });

    it('changes nothing when any part is refused', async () => {
      expectError(
        await update('adam', 'mona', { full_name: 'Mona Changed', profile_data: [{ id: phone, value: 'x'.repeat(51) }] }),
        'Phone is too long (limit: 50 characters)',
      );
      assert.equal((await get('mona')).full_name, 'Mona Lisa');
    });
  });
}
