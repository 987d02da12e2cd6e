import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERSONAL_SETTINGS } from '../../src/actions/settings-update.js';
import { type SettingValue, SETTINGS } from '../../src/lib/settings-registry.js';
import { clientFor, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

/** A valid value different from the registry default, for every personal setting. */
export function otherValue(name: string): SettingValue {
  const spec = SETTINGS[name]!;
  if (spec.type === 'bool') return !spec.default;
  if (name === 'email_notifications_batching_period_seconds') return 300;
  if (spec.values && spec.values.length > 0) return spec.values.find((v) => v !== spec.default)!;
  if (name === 'default_language') return 'de';
  if (name === 'timezone') return 'Europe/Berlin';
  if (name === 'notification_sound') return 'none';
  throw new Error(`no other value for ${name}`);
}

const CAPS = { notification_settings_null: false, user_settings_object: true };

for (const dialect of testDialects()) {
  describe(`PATCH /settings [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const userSettings = async (name: 'mark' | 'mona' | 'milo' = 'mark') =>
      expectSuccess(await ctx.as(name).post('/register', { fetch_event_types: ['user_settings'], client_capabilities: CAPS })).user_settings;

    it('accepts every setting of column P and shows it in the next /register', async () => {
      for (const name of PERSONAL_SETTINGS) {
        const res = await ctx.as('mona').patch('/settings', { [name]: otherValue(name) });
        assert.deepEqual(res.body, { result: 'success', msg: '' }, name);
      }
      const settings = await userSettings('mona');
      for (const name of PERSONAL_SETTINGS) assert.equal(settings[name], otherValue(name), name);
      // Clients without user_settings_object read the same values at top level.
      const legacy = expectSuccess(await ctx.as('mona').post('/register', { fetch_event_types: ['update_display_settings', 'update_global_notifications'] }));
      assert.equal(legacy.emojiset, otherValue('emojiset'));
      assert.equal(legacy.enable_sounds, otherValue('enable_sounds'));
      assert.equal(legacy.timezone, 'Europe/Berlin');
    });

    it('sends user_settings events, with language_name for default_language, and legacy twins', async () => {
      const { mark } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch('/settings', { default_language: 'fr', enable_sounds: false, web_home_view: 'all_messages', left_side_userlist: true }));
      assert.ok(ctx.events.every((d) => d.users.length === 1 && d.users[0] === mark.id));
      assert.deepEqual(
        ctx.events.map((d) => d.event),
        [
          { type: 'user_settings', op: 'update', property: 'default_language', value: 'fr', language_name: 'French' },
          { type: 'update_display_settings', user: mark.email, setting_name: 'default_language', setting: 'fr', language_name: 'French' },
          { type: 'user_settings', op: 'update', property: 'web_home_view', value: 'all_messages' },
          { type: 'update_display_settings', user: mark.email, setting_name: 'web_home_view', setting: 'all_messages' },
          { type: 'user_settings', op: 'update', property: 'left_side_userlist', value: true },
          { type: 'update_display_settings', user: mark.email, setting_name: 'left_side_userlist', setting: true },
          { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
          { type: 'update_global_notifications', user: mark.email, notification_name: 'enable_sounds', setting: false },
        ],
      );
      // Settings newer than the legacy events have no legacy twin; unchanged values send nothing.
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch('/settings', { user_list_style: 1, enable_sounds: false }));
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'user_settings', op: 'update', property: 'user_list_style', value: 1 }]);
    });

    it('tells everyone about a new time zone', async () => {
      const { milo, gus } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('milo').patch('/settings', { timezone: 'Asia/Kolkata' }));
      const update = ctx.events.find((d) => d.event.type === 'realm_user')!;
      assert.deepEqual(update.event.person, { user_id: milo.id, email: milo.email, timezone: 'Asia/Kolkata' });
      assert.ok(update.users.includes(gus.id));
      const users = expectSuccess(await ctx.as('gus').get(`/users/${milo.id}`)).user;
      assert.equal(users.timezone, 'Asia/Kolkata');
    });

    it('takes the emoji set vendor names as aliases and stores the SPEC names', async () => {
      for (const [alias, name] of [['google', 'vendora'], ['google-blob', 'vendora-blob'], ['twitter', 'vendorb'], ['text', 'text']]) {
        expectSuccess(await ctx.as('milo').patch('/settings', { emojiset: alias }));
        assert.equal((await userSettings('milo')).emojiset, name);
      }
    });

    it('rejects invalid values with the reference texts and changes nothing', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ emojiset: 'apple' }, 'Invalid emojiset: Value error, Not in the list of possible values'],
        [{ color_scheme: 4 }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
        [{ web_home_view: 'recent' }, 'Invalid web_home_view: Value error, Not in the list of possible values'],
        [{ demote_inactive_streams: 0 }, 'Invalid demote_inactive_streams: Value error, Not in the list of possible values'],
        [{ desktop_icon_count_display: 5 }, 'Invalid desktop_icon_count_display: Value error, Not in the list of possible values'],
        [{ automatically_follow_topics_policy: 5 }, 'Invalid automatically_follow_topics_policy: Value error, Not in the list of possible values'],
        [{ twenty_four_hour_time: 'yes' }, 'twenty_four_hour_time is not valid JSON'],
        [{ twenty_four_hour_time: 1 }, 'twenty_four_hour_time is not a boolean'],
        [{ user_list_style: '"2"' }, 'user_list_style is not an integer'],
        [{ user_list_style: 1.5 }, 'user_list_style is not an integer'],
        [{ email_notifications_batching_period_seconds: -1 }, 'Invalid email batching period: -1 seconds'],
        [{ email_notifications_batching_period_seconds: 604810 }, 'Invalid email batching period: 604810 seconds'],
        [{ default_language: 'xx' }, 'Invalid default_language'],
        [{ timezone: 'Mars/Olympus_Mons' }, 'Invalid timezone: Value error, Not a recognized time zone'],
        [{ timezone: '' }, 'Invalid timezone: Value error, Not a recognized time zone'],
        [{ notification_sound: 'klaxon' }, "Invalid notification sound 'klaxon'"],
        // One invalid value spoils the whole request.
        [{ left_side_userlist: true, color_scheme: 9 }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
      ];
      const before = await userSettings();
      ctx.clearEvents();
      for (const [params, msg] of cases) expectError(await ctx.as('mark').patch('/settings', params), msg);
      assert.deepEqual(await userSettings(), before);
      assert.deepEqual(ctx.events, []);
    });

    it('lists unsupported parameters in ignored_parameters_unsupported', async () => {
      const body = expectSuccess(await ctx.as('mark').patch('/settings', { starred_message_counts: false, emoji_set: 'twitter', email_address_visibility: 4 }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['emoji_set', 'email_address_visibility']);
      assert.equal((await userSettings()).starred_message_counts, false);
    });

    it('changes the full name, trimmed, and tells everyone', async () => {
      const { mark, gus } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch('/settings', { full_name: '  Mark Renamed ' }));
      const update = ctx.events.find((d) => d.event.type === 'realm_user')!;
      assert.deepEqual(update.event, { type: 'realm_user', op: 'update', person: { user_id: mark.id, full_name: 'Mark Renamed' } });
      assert.ok(update.users.includes(gus.id));
      assert.equal(expectSuccess(await ctx.as('mark').get('/users/me')).full_name, 'Mark Renamed');
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm_user'] }));
      assert.equal(state.full_name, 'Mark Renamed');
    });

    it('checks the full name', async () => {
      const cases: Array<[string, string]> = [
        ['M', 'Name too short!'],
        ['   ', 'Name too short!'],
        ['x'.repeat(101), 'Name too long!'],
        ['Mark *bold*', 'Invalid characters in name!'],
        ['Mark @ home', 'Invalid characters in name!'],
        ['Bell\u0007', 'Invalid characters in name!'],
        ['Mark|15', 'Invalid format!'],
      ];
      for (const [name, msg] of cases) expectError(await ctx.as('mona').patch('/settings', { full_name: name }), msg);
      assert.equal(expectSuccess(await ctx.as('mona').get('/users/me')).full_name, 'Mona Member');
    });

    it('leaves the name alone when the organization locks names, except for administrators', async () => {
      expectSuccess(await ctx.as('olivia').patch('/realm', { name_changes_disabled: true }, { undocumented: true }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('mona').patch('/settings', { full_name: 'Mona Elsewhere' }));
      assert.equal(expectSuccess(await ctx.as('mona').get('/users/me')).full_name, 'Mona Member');
      assert.deepEqual(ctx.events, []);
      expectSuccess(await ctx.as('adam').patch('/settings', { full_name: 'Adam Renamed' }));
      assert.equal(expectSuccess(await ctx.as('adam').get('/users/me')).full_name, 'Adam Renamed');
      expectSuccess(await ctx.as('olivia').patch('/realm', { name_changes_disabled: false }, { undocumented: true }));
    });

    it('changes the password only with the right old password', async () => {
      const { maya } = ctx.seed.users;
      expectError(await ctx.as('maya').patch('/settings', { old_password: 'not it', new_password: 'brand new secret' }), 'Wrong password!');
      expectError(await ctx.as('maya').patch('/settings', { new_password: 'brand new secret' }), 'Wrong password!');
      expectError(await ctx.as('maya').patch('/settings', { old_password: 'confab-dev', new_password: 'short' }), 'New password is too weak!');
      expectError(await ctx.as('maya').patch('/settings', { old_password: 'confab-dev', new_password: 'password123' }), 'New password is too weak!');
      expectError(await ctx.as('maya').patch('/settings', { old_password: 'confab-dev', new_password: 'x'.repeat(101) }), 'New password is too weak!');
      const login = (password: string) => ctx.anonymous().post('/fetch_api_key', { username: maya.delivery_email, password });
      expectSuccess(await login('confab-dev'));
      // The old password alone changes nothing.
      expectSuccess(await ctx.as('maya').patch('/settings', { old_password: 'confab-dev' }));
      expectSuccess(await ctx.as('maya').patch('/settings', { old_password: 'confab-dev', new_password: 'brand new secret' }));
      expectError(await login('confab-dev'), 'Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);
      expectSuccess(await login('brand new secret'));
      // The API key keeps working.
      expectSuccess(await ctx.as('maya').get('/users/me'));
    });

    it('refuses bots', async () => {
      const res = await clientFor(ctx.app, ctx.seed.users.welcomeBot).patch('/settings', { enable_sounds: false });
      expectError(res, 'This endpoint does not accept bot requests.');
    });

    it('serves the deprecated /settings/display and /settings/notifications aliases', async () => {
      expectSuccess(await ctx.as('milo').patch('/settings/display', { color_scheme: 2 }, { undocumented: true }));
      expectSuccess(await ctx.as('milo').patch('/settings/notifications', { enable_digest_emails: false }, { undocumented: true }));
      const settings = await userSettings('milo');
      assert.equal(settings.color_scheme, 2);
      assert.equal(settings.enable_digest_emails, false);
      const body = expectSuccess(await ctx.as('milo').patch('/settings/display', { bogus: 1 }, { undocumented: true }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['bogus']);
    });
  });
}
