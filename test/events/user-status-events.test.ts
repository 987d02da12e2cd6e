// user_status events: their shape, and that an earlier register state plus the events equals a
// fresh one, for every kind of change (setting, clearing, away, deactivation and return).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { fetchStateOf, verifyFolding } from '../support/register-state.js';

for (const dialect of testDialects()) {
  describe(`user_status events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const post = (name: 'mark' | 'mona', params: Record<string, unknown>) => async () => {
      expectSuccess(await ctx.as(name).post('/users/me/status', params));
    };
    const statuses = async () => (await fetchStateOf(ctx, 'olivia', { wanted: ['user_status'] })).user_status as Record<string, unknown>;

    it('setting, changing and clearing text and emoji', async () => {
      const { mark } = ctx.seed.users;
      const watchers = ['mark', 'mona', 'gus'] as const;
      const kinds = await verifyFolding(ctx, { watchers: [...watchers], action: post('mark', { status_text: 'lunch', emoji_name: 'car' }) });
      assert.deepEqual(kinds, ['user_status']);
      assert.deepEqual((await statuses())[mark.id], { status_text: 'lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
      await verifyFolding(ctx, { watchers: [...watchers], action: post('mark', { status_text: 'dinner' }) });
      await verifyFolding(ctx, { watchers: [...watchers], action: post('mark', { emoji_name: 'zulip' }) });
      await verifyFolding(ctx, { watchers: [...watchers], action: post('mark', { emoji_name: '' }) });
      assert.deepEqual((await statuses())[mark.id], { status_text: 'dinner' });
      // Clearing the last field removes the user from the register's list.
      await verifyFolding(ctx, { watchers: [...watchers], action: post('mark', { status_text: '' }) });
      assert.equal(mark.id in (await statuses()), false);
      // A change to nothing visible changes nobody's state.
      await verifyFolding(ctx, { watchers: [...watchers], changing: [], strict: true, action: post('mark', { status_text: '', emoji_name: '' }) });
    });

    it('away, through the status and through presence_enabled', async () => {
      const { mona } = ctx.seed.users;
      const watchers = ['mona', 'mark'] as const;
      const kinds = await verifyFolding(ctx, { watchers: [...watchers], action: post('mona', { away: true }) });
      assert.deepEqual(kinds, ['user_settings/update', 'update_global_notifications', 'user_status']);
      assert.deepEqual((await statuses())[mona.id], { away: true });
      await verifyFolding(ctx, {
        watchers: [...watchers],
        action: async () => void expectSuccess(await ctx.as('mona').patch('/settings', { presence_enabled: true })),
      });
      assert.equal(mona.id in (await statuses()), false);
      await verifyFolding(ctx, {
        watchers: [...watchers],
        action: async () => void expectSuccess(await ctx.as('mona').patch('/settings', { presence_enabled: false })),
      });
      assert.deepEqual((await statuses())[mona.id], { away: true });
    });

    it('a deactivated user drops out and comes back with their status', async () => {
      const { milo } = ctx.seed.users;
      expectSuccess(await ctx.as('milo').post('/users/me/status', { status_text: 'gone fishing', away: true }));
      await verifyFolding(ctx, {
        watchers: ['mark', 'olivia'],
        action: async () => void expectSuccess(await ctx.as('olivia').delete(`/users/${milo.id}`)),
      });
      assert.equal(milo.id in (await statuses()), false);
      await verifyFolding(ctx, {
        watchers: ['mark', 'olivia'],
        action: async () => void expectSuccess(await ctx.as('olivia').post(`/users/${milo.id}/reactivate`)),
      });
      assert.deepEqual((await statuses())[milo.id], { away: true, status_text: 'gone fishing' });
    });
  });
}
