import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId, listedGroup } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`PATCH /user_groups/{user_group_id} [${dialect}]`, () => {
    let ctx: TestContext;
    let crew: number;
    before(async () => {
      ctx = await setup(dialect);
      crew = await createGroup(ctx, 'crew', { description: 'The crew', members: [ctx.seed.users.mona.id] });
      await createGroup(ctx, 'taken');
    });
    after(() => ctx.close());

    const patch = (params: Record<string, unknown>, who: 'mona' | 'mark' | 'maya' | 'gus' | 'welcomeBot' = 'mona', id = crew) =>
      ctx.as(who).patch(`/user_groups/${id}`, params);

    it('renames, redescribes and changes who may mention, as a direct member', async () => {
      const moderators = await groupId(ctx, 'role:moderators');
      expectSuccess(await patch({ name: 'the crew', description: 'Still the crew', can_mention_group: moderators }));
      const group = (await listedGroup(ctx, crew))!;
      assert.deepEqual([group.name, group.description, group.can_mention_group], ['the crew', 'Still the crew', moderators]);
      // Unchanged values are accepted and change nothing.
      ctx.clearEvents();
      expectSuccess(await patch({ name: 'the crew', description: 'Still the crew', can_mention_group: moderators }));
      assert.equal(ctx.events.length, 0);
    });

    it('refuses an empty request, taken and invalid names, and bad settings', async () => {
      expectError(await patch({}), 'No new data supplied');
      expectError(await patch({ name: 'taken' }), "User group 'taken' already exists.");
      expectError(await patch({ name: 'role:crew' }), "User group name cannot start with 'role:'.");
      expectError(await patch({ name: '' }), "User group name can't be empty!");
      expectError(await patch({ can_mention_group: await groupId(ctx, 'role:owners') }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
      expectError(await patch({ can_mention_group: 123_456 }), 'Invalid user group');
      expectError(await patch({ description: 'a\u0000b' }), 'Invalid character in user group description, at position 2.');
      assert.equal((await listedGroup(ctx, crew))!.name, 'the crew');
    });

    it('is for moderators and above and direct members; system groups never', async () => {
      expectError(await patch({ description: 'by mark' }, 'mark'), 'Insufficient permission');
      expectSuccess(await patch({ description: 'by maya' }, 'maya'));
      expectError(await patch({ description: 'x' }, 'maya', await groupId(ctx, 'role:members')), 'Insufficient permission');
      expectError(await patch({ description: 'x' }, 'maya', 999_999), 'Invalid user group');
      expectError(await patch({ description: 'x' }, 'gus'), 'Not allowed for guest users');
      expectError(await patch({ description: 'x' }, 'welcomeBot'), 'This endpoint does not accept bot requests.');
    });

    it('a direct member needs the realm policy too', async () => {
      await setRealmSettings(ctx, { user_group_edit_policy: 4 });
      try {
        expectError(await patch({ description: 'x' }), 'Insufficient permission');
        expectSuccess(await patch({ description: 'moderated' }, 'maya'));
      } finally {
        await setRealmSettings(ctx, { user_group_edit_policy: 1 });
      }
    });
  });
}
