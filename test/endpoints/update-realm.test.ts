import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REALM_PATCH_SPECS, type RealmSettings, realmSettings } from '../../src/lib/realm-settings.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const undocumented = { undocumented: true };
type Value = boolean | number | string | null;

/** A valid value different from the organization's current one, with the value stored (and reported) for it. */
function otherValue(name: string, settings: RealmSettings): { sent: unknown; stored: Value } {
  const spec = REALM_PATCH_SPECS[name]!;
  const current = (settings as Record<string, Value>)[name];
  switch (spec.rule.kind) {
    case 'bool':
      return { sent: !current, stored: !current };
    case 'int': {
      const value = spec.rule.values ? spec.rule.values.find((v) => v !== current)! : 3;
      return { sent: value, stored: value };
    }
    case 'time_limit':
      return { sent: 'unlimited', stored: null };
    case 'retention':
      return { sent: 30, stored: 30 };
    case 'string': {
      const value = name === 'default_language' ? 'de' : spec.rule.values ? spec.rule.values.find((v) => v !== current)! : 'python';
      return { sent: value, stored: value };
    }
  }
}

for (const dialect of testDialects()) {
  describe(`PATCH /realm [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const realmState = async (name: 'mark' | 'olivia' = 'mark') => {
      const { queue_id: _queue, ...state } = expectSuccess(await ctx.as(name).post('/register', { fetch_event_types: ['realm', 'realm_user'] }));
      return state;
    };

    it('is for administrators', async () => {
      expectError(await ctx.as('mark').patch('/realm', { name: 'Mine now' }, undocumented), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await ctx.as('maya').patch('/realm', { edit_topic_policy: 'nonsense' }, undocumented), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await ctx.as('gus').patch('/realm', {}, undocumented), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    });

    it('keeps some settings for owners', async () => {
      for (const [name, value] of Object.entries({
        invite_required: false,
        invite_to_realm_policy: 2,
        emails_restricted_to_domains: true,
        disallow_disposable_email_addresses: false,
        waiting_period_threshold: 3,
        message_retention_days: 30,
      })) {
        expectError(await ctx.as('adam').patch('/realm', { [name]: value }, undocumented), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      }
      expectSuccess(await ctx.as('olivia').patch('/realm', { waiting_period_threshold: 3 }, undocumented));
      expectSuccess(await ctx.as('olivia').patch('/realm', { waiting_period_threshold: 0 }, undocumented));
    });

    it('renames the organization and changes its description', async () => {
      const { mark, gus } = ctx.seed.users;
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('adam').patch('/realm', { name: 'Confab Renamed', description: 'We **build**.' }, undocumented));
      assert.deepEqual(body, { result: 'success', msg: '', name: 'updated', description: 'updated' });
      assert.deepEqual(
        ctx.events.map((d) => d.event),
        [
          { type: 'realm', op: 'update', property: 'name', value: 'Confab Renamed' },
          { type: 'realm', op: 'update', property: 'description', value: 'We **build**.' },
        ],
      );
      assert.ok(ctx.events.every((d) => d.users.includes(mark.id) && d.users.includes(gus.id)));
      const state = await realmState();
      assert.equal(state.realm_name, 'Confab Renamed');
      assert.equal(state.realm_description, '<p>We <strong>build</strong>.</p>');
      expectSuccess(await ctx.as('adam').patch('/realm', { name: 'Confab Dev' }, undocumented));
    });

    it('bounds name and description', async () => {
      expectError(await ctx.as('adam').patch('/realm', { name: 'x'.repeat(41) }, undocumented), 'name is too long (limit: 40 characters)');
      expectError(await ctx.as('adam').patch('/realm', { description: 'x'.repeat(1001) }, undocumented), 'description is too long (limit: 1000 characters)');
      expectSuccess(await ctx.as('adam').patch('/realm', { name: 'x'.repeat(40) }, undocumented));
      expectSuccess(await ctx.as('adam').patch('/realm', { name: 'Confab Dev' }, undocumented));
    });

    it('changes every setting, with the event form the reference uses, and /register shows it', async () => {
      const editingTrio = ['allow_message_editing', 'message_content_edit_limit_seconds', 'edit_topic_policy'];
      const realm = await ctx.services.db.selectFrom('realm').select('settings').where('id', '=', ctx.seed.realm.id).executeTakeFirstOrThrow();
      const current = realmSettings(realm);
      for (const name of Object.keys(REALM_PATCH_SPECS)) {
        const { sent, stored } = otherValue(name, current);
        ctx.clearEvents();
        const body = expectSuccess(await ctx.as('olivia').patch('/realm', { [name]: sent }, undocumented));
        assert.deepEqual(body[name], typeof stored === 'string' ? 'updated' : stored, name);
        const event = ctx.events.find((d) => d.event.type === 'realm')!.event;
        if (editingTrio.includes(name)) assert.deepEqual(event, { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: stored } });
        else assert.deepEqual(event, { type: 'realm', op: 'update', property: name, value: stored }, name);
        assert.deepEqual((await realmState())[`realm_${name}`], stored, name);
        // Sending the same value again changes nothing.
        ctx.clearEvents();
        assert.deepEqual(expectSuccess(await ctx.as('olivia').patch('/realm', { [name]: sent }, undocumented)), { result: 'success', msg: '' });
        assert.deepEqual(ctx.events, []);
      }
    });

    it('takes time limits in seconds or "unlimited"', async () => {
      expectSuccess(await ctx.as('adam').patch('/realm', { message_content_edit_limit_seconds: 1200 }, undocumented));
      assert.equal((await realmState()).realm_message_content_edit_limit_seconds, 1200);
      for (const bad of [0, -5, 'forever']) {
        const res = await ctx.as('adam').patch('/realm', { move_messages_within_stream_limit_seconds: bad }, undocumented);
        const body = expectError(res, `Bad value for 'move_messages_within_stream_limit_seconds': ${bad}`, 'REQUEST_VARIABLE_INVALID');
        assert.equal(body.var_name, 'move_messages_within_stream_limit_seconds');
        assert.equal(body.bad_value, bad);
      }
      expectError(await ctx.as('adam').patch('/realm', { message_content_delete_limit_seconds: 'later' }, undocumented), 'message_content_delete_limit_seconds is not valid JSON');
      expectError(await ctx.as('adam').patch('/realm', { message_content_delete_limit_seconds: '[1]' }, undocumented), 'message_content_delete_limit_seconds is not a string or an integer');
      expectSuccess(await ctx.as('olivia').patch('/realm', { message_retention_days: 'forever' }, undocumented));
      assert.equal((await realmState()).realm_message_retention_days, -1);
      expectError(await ctx.as('olivia').patch('/realm', { message_retention_days: 0 }, undocumented), "Bad value for 'message_retention_days': 0", 'REQUEST_VARIABLE_INVALID');
    });

    it('takes the boolean allow_edit_history of the era', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('adam').patch('/realm', { allow_edit_history: false }, undocumented));
      assert.equal(body.message_edit_history_visibility_policy, 'updated');
      assert.deepEqual(
        ctx.events.map((d) => d.event),
        [
          { type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: 'none' },
          { type: 'realm', op: 'update', property: 'allow_edit_history', value: false },
        ],
      );
      const state = await realmState();
      assert.equal(state.realm_allow_edit_history, false);
      assert.equal(state.realm_message_edit_history_visibility_policy, 'none');
      expectSuccess(await ctx.as('adam').patch('/realm', { message_edit_history_visibility_policy: 'all' }, undocumented));
      assert.equal((await realmState()).realm_allow_edit_history, true);
    });

    it('rejects invalid values with the reference texts and changes nothing', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ edit_topic_policy: 7 }, 'Invalid edit_topic_policy: Value error, Not in the list of possible values'],
        [{ move_messages_between_streams_policy: 5 }, 'Invalid move_messages_between_streams_policy: Value error, Not in the list of possible values'],
        [{ wildcard_mention_policy: 4 }, 'Invalid wildcard_mention_policy: Value error, Not in the list of possible values'],
        [{ create_web_public_stream_policy: 1 }, 'Invalid create_web_public_stream_policy: Value error, Not in the list of possible values'],
        [{ message_edit_history_visibility_policy: 'some' }, 'Invalid message_edit_history_visibility_policy: Value error, Not in the list of possible values'],
        [{ allow_message_editing: 'maybe' }, 'allow_message_editing is not valid JSON'],
        [{ mandatory_topics: 1 }, 'mandatory_topics is not a boolean'],
        [{ delete_own_message_policy: '"1"' }, 'delete_own_message_policy is not an integer'],
        [{ default_language: 'xx' }, "Invalid language 'xx'"],
        [{ giphy_rating: 9 }, 'Invalid giphy_rating 9'],
        [{ video_chat_provider: 2 }, 'Invalid video_chat_provider 2'],
        [{ name: 'Nul\u0000' }, 'name contains NULL (0x00) characters.'],
        [{ name: 'Fine', edit_topic_policy: 0 }, 'Invalid edit_topic_policy: Value error, Not in the list of possible values'],
      ];
      const before = await realmState();
      ctx.clearEvents();
      for (const [params, msg] of cases) expectError(await ctx.as('olivia').patch('/realm', params, undocumented), msg);
      expectError(await ctx.as('olivia').patch('/realm', { waiting_period_threshold: -1 }, undocumented), 'waiting_period_threshold is too small');
      assert.deepEqual(ctx.events, []);
      assert.deepEqual(await realmState(), before);
    });

    it('updates the abilities register derives from realm policies', async () => {
      expectSuccess(await ctx.as('olivia').patch('/realm', { create_public_stream_policy: 2, create_private_stream_policy: 2 }, undocumented));
      const member = await realmState('mark');
      assert.equal(member.can_create_streams, false);
      assert.equal(member.can_create_public_streams, false);
      assert.equal((await realmState('olivia')).can_create_public_streams, true);
      expectSuccess(await ctx.as('olivia').patch('/realm', { create_public_stream_policy: 1, create_private_stream_policy: 1 }, undocumented));
      assert.equal((await realmState('mark')).can_create_streams, true);
    });

    it('lists unknown parameters in ignored_parameters_unsupported', async () => {
      const body = expectSuccess(await ctx.as('adam').patch('/realm', { bogus: 1, name: 'Confab Elsewhere' }, undocumented));
      assert.deepEqual(body, { result: 'success', msg: '', name: 'updated', ignored_parameters_unsupported: ['bogus'] });
      expectSuccess(await ctx.as('adam').patch('/realm', { name: 'Confab Dev' }, undocumented));
    });

    it('takes effect at once: message editing follows the new settings', async () => {
      const sent = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'edits', content: 'first' }));
      expectSuccess(await ctx.as('olivia').patch('/realm', { allow_message_editing: false }, undocumented));
      expectError(await ctx.as('mark').patch(`/messages/${sent.id}`, { content: 'second' }), 'Your organization has turned off message editing');
      expectSuccess(await ctx.as('olivia').patch('/realm', { allow_message_editing: true, message_content_edit_limit_seconds: 'unlimited' }, undocumented));
      expectSuccess(await ctx.as('mark').patch(`/messages/${sent.id}`, { content: 'second' }));
    });

    it('answers odd values from an owner with 400s, never a failure', async () => {
      const odd = ['', 'null', '1e309', '-1', '99999999999999999999', '"x"', '[]', '{}', 'nul\u0000', 'true', 'x'.repeat(5000)];
      const names = ['name', 'description', 'allow_edit_history', ...Object.keys(REALM_PATCH_SPECS)];
      for (const name of names) {
        for (const value of odd) {
          const res = await ctx.as('olivia').patch('/realm', { [name]: value }, undocumented);
          assert.ok(res.status === 200 || res.status === 400, `${name}=${value.slice(0, 20)}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      for (const name of ['emojiset', 'enter_sends', 'user_list_style', 'notification_sound', 'email_address_visibility']) {
        for (const value of odd) {
          const res = await ctx.as('olivia').patch('/realm/user_settings_defaults', { [name]: value });
          assert.ok(res.status === 200 || res.status === 400, `${name}=${value.slice(0, 20)}: ${res.status}`);
        }
      }
    });
  });
}
