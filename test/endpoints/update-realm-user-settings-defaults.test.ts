import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REALM_DEFAULT_SETTINGS } from '../../src/actions/settings-update.js';
import { type SettingValue, SETTINGS } from '../../src/lib/settings-registry.js';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

function otherValue(name: string): SettingValue {
  const spec = SETTINGS[name]!;
  if (spec.type === 'bool') return !spec.default;
  if (name === 'email_notifications_batching_period_seconds') return 600;
  if (spec.values && spec.values.length > 0) return spec.values.find((v) => v !== spec.default)!;
  if (name === 'notification_sound') return 'none';
  throw new Error(`no other value for ${name}`);
}

const CAPS = { notification_settings_null: false, user_settings_object: true };

for (const dialect of testDialects()) {
  describe(`PATCH /realm/user_settings_defaults [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const defaultsOf = async (name: 'mark' | 'adam') =>
      expectSuccess(await ctx.as(name).post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })).realm_user_settings_defaults;

    it('is for administrators', async () => {
      for (const name of ['mark', 'maya', 'gus'] as const) {
        expectError(
          await ctx.as(name).patch('/realm/user_settings_defaults', { left_side_userlist: 'not even JSON' }),
          'Must be an organization administrator',
          'UNAUTHORIZED_PRINCIPAL',
        );
      }
    });

    it('changes every setting of column R for users who join later, never for existing users', async () => {
      const before = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['user_settings'], client_capabilities: CAPS })).user_settings;
      const { mark, gus } = ctx.seed.users;
      ctx.clearEvents();
      for (const name of REALM_DEFAULT_SETTINGS) {
        assert.deepEqual(await ctx.as('adam').patch('/realm/user_settings_defaults', { [name]: otherValue(name) }).then((r) => r.body), { result: 'success', msg: '' }, name);
      }
      assert.equal(ctx.events.length, REALM_DEFAULT_SETTINGS.length);
      for (const [i, name] of REALM_DEFAULT_SETTINGS.entries()) {
        assert.deepEqual(ctx.events[i]!.event, { type: 'realm_user_settings_defaults', op: 'update', property: name, value: otherValue(name) });
        assert.ok(ctx.events[i]!.users.includes(mark.id) && ctx.events[i]!.users.includes(gus.id));
      }
      const defaults = await defaultsOf('mark');
      for (const name of REALM_DEFAULT_SETTINGS) assert.equal(defaults[name], otherValue(name), name);

      const after = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['user_settings'], client_capabilities: CAPS })).user_settings;
      assert.deepEqual(after, before);

      const created = expectSuccess(
        await ctx.as('olivia').post('/users', { email: 'late@confab.test', password: 'long enough password', full_name: 'Late Comer' }),
      );
      const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', created.user_id).executeTakeFirstOrThrow();
      const client = new ApiClient(ctx.app, ApiClient.basic(row.delivery_email, row.api_key));
      const own = expectSuccess(await client.post('/register', { fetch_event_types: ['user_settings'], client_capabilities: CAPS })).user_settings;
      for (const name of REALM_DEFAULT_SETTINGS) {
        if (SETTINGS[name]!.personal) assert.equal(own[name], otherValue(name), name);
      }
      // email_address_visibility 2 (members): a guest no longer sees the newcomer's address.
      const seen = expectSuccess(await ctx.as('gus').get(`/users/${created.user_id}`)).user;
      assert.equal(seen.delivery_email, null);
    });

    it('takes emoji set aliases and checks values like PATCH /settings', async () => {
      expectSuccess(await ctx.as('adam').patch('/realm/user_settings_defaults', { emojiset: 'google-blob' }));
      assert.equal((await defaultsOf('adam')).emojiset, 'vendora-blob');
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ emojiset: 'apple' }, 'Invalid emojiset: Value error, Not in the list of possible values'],
        [{ notification_sound: 'invalid' }, "Invalid notification sound 'invalid'"],
        [{ email_notifications_batching_period_seconds: -1 }, 'Invalid email batching period: -1 seconds'],
        [{ email_address_visibility: 6 }, 'Invalid email_address_visibility: Value error, Not in the list of possible values'],
        [{ enter_sends: 'yes' }, 'enter_sends is not valid JSON'],
      ];
      for (const [params, msg] of cases) expectError(await ctx.as('adam').patch('/realm/user_settings_defaults', params), msg);
    });

    it('lists settings outside column R in ignored_parameters_unsupported', async () => {
      const body = expectSuccess(
        await ctx.as('adam').patch('/realm/user_settings_defaults', { default_language: 'de', timezone: 'UTC', enable_login_emails: false, dense_mode: false }),
      );
      assert.deepEqual(body.ignored_parameters_unsupported, ['default_language', 'timezone', 'enable_login_emails']);
    });
  });
}
