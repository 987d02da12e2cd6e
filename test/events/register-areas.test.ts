// The register areas clients read at start-up beyond messages and streams: their values, and that
// events keep them current (an earlier state plus the events equals a fresh one).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doDeactivateUser } from '../../src/actions/user-deactivate.js';
import { getRealmById } from '../../src/queries/realms.js';
import { getUserById } from '../../src/queries/users.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { fetchStateOf, verifyFolding } from '../support/register-state.js';

type Dict = Record<string, any>;

for (const dialect of testDialects()) {
  describe(`POST /register areas [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const groupId = async (name: string) => {
      const { user_groups } = expectSuccess(await ctx.as('mark').get('/user_groups'));
      return (user_groups as Dict[]).find((g) => g.name === name)!.id as number;
    };

    it('answers the empty form of areas a new organization has nothing in yet', async () => {
      const body = expectSuccess(
        await ctx.as('mark').post('/register', {
          fetch_event_types: [
            'custom_profile_fields', 'realm_emoji', 'realm_domains', 'scheduled_messages', 'default_stream_groups',
            'realm_embedded_bots', 'realm_incoming_webhook_bots', 'video_calls', 'giphy', 'stop_words',
          ],
        }),
      );
      assert.deepEqual(
        {
          custom_profile_fields: body.custom_profile_fields,
          realm_emoji: body.realm_emoji,
          realm_domains: body.realm_domains,
          scheduled_messages: body.scheduled_messages,
          realm_default_stream_groups: body.realm_default_stream_groups,
          realm_embedded_bots: body.realm_embedded_bots,
          realm_incoming_webhook_bots: body.realm_incoming_webhook_bots,
          has_zoom_token: body.has_zoom_token,
          giphy_api_key: body.giphy_api_key,
        },
        {
          custom_profile_fields: [],
          realm_emoji: {},
          realm_domains: [],
          scheduled_messages: [],
          realm_default_stream_groups: [],
          realm_embedded_bots: [],
          realm_incoming_webhook_bots: [],
          has_zoom_token: false,
          giphy_api_key: '',
        },
      );
      assert.deepEqual(body.custom_profile_field_types, {
        SHORT_TEXT: { id: 1, name: 'Short text' },
        LONG_TEXT: { id: 2, name: 'Long text' },
        SELECT: { id: 3, name: 'List of options' },
        DATE: { id: 4, name: 'Date picker' },
        URL: { id: 5, name: 'Link' },
        USER: { id: 6, name: 'Person picker' },
        EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
        PRONOUNS: { id: 8, name: 'Pronouns' },
      });
      assert.equal(body.stop_words.length, 127);
      assert.ok(body.stop_words.includes('the'));
    });

    it('reports the server tables of the realm area', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
      assert.deepEqual(body.realm_default_external_accounts, {
        twitter: { text: 'Twitter', url_pattern: 'https://twitter.com/%(username)s', name: 'Twitter username', hint: '' },
        github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub username', hint: '' },
      });
      assert.deepEqual(body.realm_available_video_chat_providers, {
        disabled: { name: 'None', id: 0 },
        jitsi_meet: { name: 'Jitsi Meet', id: 1 },
        zoom: { name: 'Zoom', id: 3 },
        big_blue_button: { name: 'BigBlueButton', id: 4 },
      });
      assert.equal(body.max_file_upload_size_mib, 25);
      assert.equal(body.server_emoji_data_url, 'http://confab.test/static/generated/emoji/emoji_api.json');
      assert.equal(body.jitsi_server_url, 'https://meet.jit.si');
      assert.equal(body.server_jitsi_server_url, 'https://meet.jit.si');
      assert.equal(body.realm_create_multiuse_invite_group, await groupId('role:administrators'));
      assert.equal(body.realm_can_access_all_users_group, await groupId('role:everyone'));
      assert.deepEqual(Object.keys(body.server_supported_permission_settings), ['realm', 'stream', 'group']);
    });

    it('lists the user groups as GET /user_groups does, for guests too', async () => {
      const { user_groups } = expectSuccess(await ctx.as('mark').get('/user_groups'));
      for (const name of ['mark', 'gus'] as const) {
        const body = expectSuccess(await ctx.as(name).post('/register', { fetch_event_types: ['realm_user_groups'] }));
        assert.deepEqual(body.realm_user_groups, user_groups, name);
      }
    });

    it('lists every bot to administrators and their own bots to others', async () => {
      const bot = ctx.seed.users.welcomeBot;
      const users = expectSuccess(await ctx.as('olivia').get('/users', { client_gravatar: false })).members as Dict[];
      const expected = {
        user_id: bot.id,
        full_name: 'Welcome Bot',
        api_key: bot.api_key,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
        avatar_url: users.find((u) => u.user_id === bot.id)!.avatar_url,
        owner_id: ctx.seed.users.olivia.id,
        services: [],
        email: 'welcome-bot@confab.test',
        bot_type: 1,
        is_active: true,
      };
      for (const name of ['olivia', 'adam'] as const) {
        const body = expectSuccess(await ctx.as(name).post('/register', { fetch_event_types: ['realm_bot'] }));
        assert.deepEqual(body.realm_bots, [expected], name);
      }
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm_bot'] }));
      assert.deepEqual(body.realm_bots, []);
    });

    it('gives the legacy muted_topics and enter_sends to clients asking for every area', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register'));
      assert.deepEqual(body.muted_topics, []);
      assert.equal(body.enter_sends, false);
    });

    it('folds a change of enter_sends into the legacy top-level key', async () => {
      await verifyFolding(ctx, {
        watchers: ['mark'],
        request: { capabilities: { user_settings_object: false } },
        action: async () => {
          expectSuccess(await ctx.as('mark').patch('/settings', { enter_sends: true }));
        },
      });
      assert.equal((await fetchStateOf(ctx, 'mark', { capabilities: { user_settings_object: false } })).enter_sends, true);
    });

    it('folds group memberships: a new user joins, deactivation leaves, reactivation rejoins', async () => {
      const members = await groupId('role:members');
      const inGroup = async (userId: number) =>
        ((await fetchStateOf(ctx, 'olivia', { wanted: ['realm_user_groups'] })).realm_user_groups as Dict[])
          .find((g) => g.id === members)!
          .members.includes(userId);
      let created = 0;
      await verifyFolding(ctx, {
        watchers: ['olivia', 'mark'],
        request: { wanted: ['realm_user_groups', 'realm_user'] },
        action: async () => {
          const body = expectSuccess(
            await ctx.as('olivia').post('/users', { email: 'joiner@confab.test', password: 'long enough password', full_name: 'Joiner' }),
          );
          created = body.user_id;
        },
      });
      assert.equal(await inGroup(created), true);
      await verifyFolding(ctx, {
        watchers: ['olivia', 'mark'],
        request: { wanted: ['realm_user_groups', 'realm_user'] },
        action: async () => {
          expectSuccess(await ctx.as('olivia').delete(`/users/${created}`));
        },
      });
      assert.equal(await inGroup(created), false);
      await verifyFolding(ctx, {
        watchers: ['olivia', 'mark'],
        request: { wanted: ['realm_user_groups', 'realm_user'] },
        action: async () => {
          expectSuccess(await ctx.as('olivia').post(`/users/${created}/reactivate`));
        },
      });
      assert.equal(await inGroup(created), true);
    });

    it('folds a bot deactivated and reactivated into realm_bots', async () => {
      const bot = ctx.seed.users.welcomeBot;
      const labels = await verifyFolding(ctx, {
        watchers: ['olivia', 'adam'],
        request: { wanted: ['realm_bot'] },
        // No API route deactivates a bot yet (DELETE /users/{id} takes only humans): the action does.
        action: async () => {
          const realm = (await getRealmById(ctx.store.db, ctx.seed.realm.id))!;
          const row = (await getUserById(ctx.store.db, realm.id, bot.id))!;
          await runSystemAction(ctx.services, (system) => doDeactivateUser(system, realm, row));
        },
      });
      assert.ok(labels.includes('realm_bot/update'));
      assert.equal(((await fetchStateOf(ctx, 'adam', { wanted: ['realm_bot'] })).realm_bots as Dict[])[0]!.is_active, false);
      const again = await verifyFolding(ctx, {
        watchers: ['olivia', 'adam', 'mark'],
        changing: ['olivia', 'adam'],
        strict: true,
        request: { wanted: ['realm_bot'] },
        action: async () => {
          expectSuccess(await ctx.as('olivia').post(`/users/${bot.id}/reactivate`));
        },
      });
      assert.ok(again.includes('realm_bot/add'));
      assert.equal(((await fetchStateOf(ctx, 'adam', { wanted: ['realm_bot'] })).realm_bots as Dict[])[0]!.is_active, true);
    });
  });
}
