import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /user_groups [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('lists the system groups with their members by role', async () => {
      const { olivia, adam, maya, mark, mona, milo, gus, welcomeBot } = ctx.seed.users;
      const bot = (await ctx.services.db.selectFrom('realm').select('notification_bot_id').executeTakeFirstOrThrow()).notification_bot_id!;
      const body = expectSuccess(await ctx.as('mark').get('/user_groups'));
      const groups = body.user_groups as Array<Record<string, any>>;
      const byName = new Map(groups.map((g) => [g.name, g]));
      const id = (name: string) => byName.get(name)!.id as number;
      const members = [bot, mark.id, mona.id, milo.id, welcomeBot.id].sort((a, b) => a - b);
      assert.deepEqual(
        groups.map((g) => [g.name, g.members, g.direct_subgroup_ids]),
        [
          ['role:internet', [], [id('role:everyone')]],
          ['role:everyone', [gus.id], [id('role:members')]],
          ['role:members', members, [id('role:fullmembers')]],
          ['role:fullmembers', members, [id('role:moderators')]],
          ['role:moderators', [maya.id], [id('role:administrators')]],
          ['role:administrators', [adam.id], [id('role:owners')]],
          ['role:owners', [olivia.id], []],
          ['role:nobody', [], []],
        ],
      );
      assert.deepEqual(byName.get('role:moderators'), {
        id: id('role:moderators'),
        name: 'role:moderators',
        description: 'Moderators of this organization, including admins',
        members: [maya.id],
        direct_subgroup_ids: [id('role:administrators')],
        is_system_group: true,
        // As in the reference, no one may mention a system group.
        can_mention_group: id('role:nobody'),
      });
    });

    it('counts new members as full members only after the waiting period', async () => {
      const { mark } = ctx.seed.users;
      await ctx.services.db.updateTable('realm').set({ settings: JSON.stringify({ waiting_period_threshold: 3 }) }).execute();
      try {
        await ctx.services.db.updateTable('user_profile').set({ date_joined: Math.floor(ctx.clock.now()) }).where('id', '=', mark.id).execute();
        const groups = expectSuccess(await ctx.as('adam').get('/user_groups')).user_groups as Array<Record<string, any>>;
        const full = groups.find((g) => g.name === 'role:fullmembers')!;
        const all = groups.find((g) => g.name === 'role:members')!;
        assert.equal(full.members.includes(mark.id), false);
        assert.equal(all.members.includes(mark.id), true);
      } finally {
        await ctx.services.db.updateTable('realm').set({ settings: '{}' }).execute();
      }
    });

    it('is not for guests or bots', async () => {
      expectError(await ctx.as('gus').get('/user_groups'), 'Not allowed for guest users');
      expectError(await ctx.as('welcomeBot').get('/user_groups'), 'This endpoint does not accept bot requests.');
    });
  });
}
