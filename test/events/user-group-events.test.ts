// user_group events in every form (add, update, remove, add_members, remove_members,
// add_subgroups, remove_subgroups): their shapes match the reference, they reach every active user
// of the organization, and an earlier POST /register state plus them equals a fresh one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { verifyFolding } from '../support/register-state.js';

const WATCHERS = ['olivia', 'mark', 'gus'] as const;

for (const dialect of testDialects()) {
  describe(`user_group events [${dialect}]`, () => {
    let ctx: TestContext;
    let crew: number;
    let members: number;
    before(async () => {
      ctx = await setup(dialect);
      const groups = expectSuccess(await ctx.as('olivia').get('/user_groups')).user_groups as Array<{ id: number; name: string }>;
      members = groups.find((g) => g.name === 'role:members')!.id;
    });
    after(() => ctx.close());

    const fold = (action: () => Promise<void>) => verifyFolding(ctx, { watchers: [...WATCHERS], action, request: { wanted: ['realm_user_groups'] } });

    it('add: a new group, with its members', async () => {
      const { mark, mona } = ctx.seed.users;
      const kinds = await fold(async () => {
        crew = expectSuccess(await ctx.as('mark').post('/user_groups/create', { name: 'crew', description: 'The crew', members: [mona.id, mark.id] })).group_id;
      });
      assert.deepEqual(kinds, ['user_group/add']);
      assert.deepEqual(ctx.events[0]!.event.group, {
        name: 'crew',
        members: [mark.id, mona.id].sort((a, b) => a - b),
        description: 'The crew',
        id: crew,
        is_system_group: false,
        direct_subgroup_ids: [],
        can_mention_group: (await everyoneGroup()),
      });
      const active = await ctx.services.db.selectFrom('user_profile').select('id').where('realm_id', '=', ctx.seed.realm.id).where('is_active', '=', 1).execute();
      assert.deepEqual([...ctx.events[0]!.users].sort(), active.map((u) => u.id).sort());
    });

    async function everyoneGroup(): Promise<number> {
      const row = await ctx.services.db.selectFrom('user_group').select('id').where('realm_id', '=', ctx.seed.realm.id).where('name', '=', 'role:everyone').executeTakeFirstOrThrow();
      return row.id;
    }

    it('update: name, description and can_mention_group, one event each', async () => {
      const kinds = await fold(async () => {
        expectSuccess(await ctx.as('mark').patch(`/user_groups/${crew}`, { name: 'the crew', description: 'Still the crew', can_mention_group: members }));
      });
      assert.deepEqual(kinds, ['user_group/update', 'user_group/update', 'user_group/update']);
      assert.deepEqual(
        ctx.events.map((d) => d.event.data),
        [{ name: 'the crew' }, { description: 'Still the crew' }, { can_mention_group: members }],
      );
    });

    it('add_members and remove_members', async () => {
      const { milo, mona } = ctx.seed.users;
      const kinds = await fold(async () => {
        expectSuccess(await ctx.as('mark').post(`/user_groups/${crew}/members`, { add: [milo.id], delete: [mona.id] }));
      });
      // Each change also brings the notification bot's direct message (sender's and recipient's copies).
      assert.deepEqual(kinds, ['user_group/add_members', 'message', 'message', 'user_group/remove_members', 'message', 'message']);
      const groupEvents = ctx.events.filter((d) => d.event.type === 'user_group');
      assert.deepEqual(groupEvents.map((d) => d.event.user_ids), [[milo.id], [mona.id]]);
    });

    it('add_subgroups and remove_subgroups', async () => {
      let inner = 0;
      await fold(async () => {
        inner = expectSuccess(await ctx.as('mark').post('/user_groups/create', { name: 'inner', description: '' })).group_id;
      });
      const kinds = await fold(async () => {
        expectSuccess(await ctx.as('mark').post(`/user_groups/${crew}/subgroups`, { add: [inner, members] }));
        expectSuccess(await ctx.as('mark').post(`/user_groups/${crew}/subgroups`, { delete: [members] }));
      });
      assert.deepEqual(kinds, ['user_group/add_subgroups', 'user_group/remove_subgroups']);
      assert.deepEqual(ctx.events.map((d) => d.event.direct_subgroup_ids), [[inner, members].sort((a, b) => a - b), [members]]);
    });

    it('remove: the group goes, and leaves the groups it was inside', async () => {
      const inner = (await ctx.services.db.selectFrom('user_group').select('id').where('name', '=', 'inner').executeTakeFirstOrThrow()).id;
      const kinds = await fold(async () => {
        // Mark made it but is not in it: an owner deletes it.
        expectSuccess(await ctx.as('olivia').delete(`/user_groups/${inner}`, {}, { undocumented: true }));
      });
      assert.deepEqual(kinds, ['user_group/remove']);
      assert.deepEqual(ctx.events[0]!.event, { type: 'user_group', op: 'remove', group_id: inner });
    });
  });
}
