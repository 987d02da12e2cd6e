import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { activeUserIds } from '../../src/queries/users.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/me/status [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const statusOf = async (name: 'mark' | 'mona' | 'milo' | 'maya') =>
      expectSuccess(await ctx.as('olivia').get(`/users/${ctx.seed.users[name].id}/status`)).status;

    it('refuses a request that changes nothing', async () => {
      expectError(await ctx.as('mark').post('/users/me/status', {}), 'Client did not pass any new values.');
      // emoji_code and reaction_type alone name no change either.
      expectError(await ctx.as('mark').post('/users/me/status', { emoji_code: '' }), 'Client did not pass any new values.');
    });

    it('refuses a status text over 60 characters, counted after trimming', async () => {
      expectError(await ctx.as('mark').post('/users/me/status', { status_text: 'x'.repeat(61) }), 'status_text is too long (limit: 60 characters)');
      expectSuccess(await ctx.as('mark').post('/users/me/status', { status_text: `  ${'é'.repeat(60)}  ` }));
      assert.deepEqual(await statusOf('mark'), { status_text: 'é'.repeat(60) });
      expectError(await ctx.as('mark').post('/users/me/status', { status_text: 'a\u0000b' }), 'status_text contains NULL (0x00) characters.');
    });

    it('checks the emoji as the reference does', async () => {
      const post = (params: Record<string, string>) => ctx.as('mona').post('/users/me/status', params);
      expectError(await post({ status_text: 'In a meeting', emoji_code: '1f4bb' }), 'Client must pass emoji_name if they pass either emoji_code or reaction_type.');
      expectError(await post({ status_text: 'In a meeting', reaction_type: 'unicode_emoji' }), 'Client must pass emoji_name if they pass either emoji_code or reaction_type.');
      expectError(await post({ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'invalid' }), "Emoji 'invalid' does not exist");
      expectError(await post({ status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car' }), 'Invalid emoji name.');
      expectError(await post({ emoji_code: '1f4bb', emoji_name: 'car', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.');
      expectError(await post({ emoji_code: 'ffff', emoji_name: 'car', reaction_type: 'unicode_emoji' }), 'Invalid emoji code.');
      expectError(await post({ emoji_name: 'car', reaction_type: 'other' }), 'Invalid emoji type.');
      // Nothing was stored by the refused requests.
      assert.deepEqual(await statusOf('mona'), {});
      expectSuccess(await post({ status_text: 'In a meeting', emoji_name: 'car' }));
      assert.deepEqual(await statusOf('mona'), { status_text: 'In a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
      expectSuccess(await post({ emoji_name: 'zulip' }));
      assert.deepEqual(await statusOf('mona'), { status_text: 'In a meeting', emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    });

    it('changes only what is passed, and empty values clear', async () => {
      const { milo } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('milo').post('/users/me/status', { status_text: 'on vacation', emoji_name: 'car' }));
      assert.deepEqual(ctx.events.map((d) => d.event), [
        { type: 'user_status', user_id: milo.id, status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
      ]);
      // Everyone active in the organization hears of it, bots included.
      const everyone = await activeUserIds(ctx.services.db, ctx.seed.realm.id);
      assert.ok(everyone.includes(ctx.seed.users.welcomeBot.id));
      assert.deepEqual([...ctx.events[0]!.users].sort((a, b) => a - b), [...everyone].sort((a, b) => a - b));

      ctx.clearEvents();
      expectSuccess(await ctx.as('milo').post('/users/me/status', { status_text: 'back soon' }));
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'user_status', user_id: milo.id, status_text: 'back soon' }]);
      assert.deepEqual(await statusOf('milo'), { status_text: 'back soon', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });

      ctx.clearEvents();
      // An empty emoji name clears the emoji, whatever code and type come with it.
      expectSuccess(await ctx.as('milo').post('/users/me/status', { emoji_name: '', emoji_code: '1f697', reaction_type: 'realm_emoji' }));
      assert.deepEqual(ctx.events.map((d) => d.event), [
        { type: 'user_status', user_id: milo.id, emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' },
      ]);
      assert.deepEqual(await statusOf('milo'), { status_text: 'back soon' });
      expectSuccess(await ctx.as('milo').post('/users/me/status', { status_text: '' }));
      assert.deepEqual(await statusOf('milo'), {});
    });

    it('away (deprecated) is the presence_enabled setting', async () => {
      const { maya } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('maya').post('/users/me/status', { away: true, status_text: 'out' }));
      assert.deepEqual(ctx.events.map((d) => d.event), [
        { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
        { type: 'update_global_notifications', user: maya.email, notification_name: 'presence_enabled', setting: false },
        { type: 'user_status', user_id: maya.id, away: true, status_text: 'out' },
      ]);
      assert.deepEqual(await statusOf('maya'), { away: true, status_text: 'out' });
      assert.equal(expectSuccess(await ctx.as('maya').post('/register', { fetch_event_types: ['user_settings'] })).user_settings.presence_enabled, false);

      // Turning presence back on through the settings tells everyone she is no longer away.
      ctx.clearEvents();
      expectSuccess(await ctx.as('maya').patch('/settings', { presence_enabled: true }));
      assert.deepEqual(ctx.events.map((d) => d.event).filter((e) => e.type === 'user_status'), [{ type: 'user_status', user_id: maya.id, away: false }]);
      assert.deepEqual(await statusOf('maya'), { status_text: 'out' });

      ctx.clearEvents();
      expectSuccess(await ctx.as('maya').post('/users/me/status', { away: false }));
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'user_status', user_id: maya.id, away: false }]);
    });

    it('refuses bots', async () => {
      expectError(await ctx.as('welcomeBot').post('/users/me/status', { status_text: 'beep' }), 'This endpoint does not accept bot requests.');
    });
  });
}
