// Events of personal settings, realm settings and realm defaults: their shapes match the
// reference, an earlier /register state plus them equals a fresh one, and queues hand the
// legacy forms only to clients without user_settings_object.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { applyEvents } from '../../src/events/apply.js';
import type { InitialState } from '../../src/events/initial-state.js';
import { setMailTransport } from '../../src/adapters/mail/transport.js';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';
import { fetchStateOf } from '../support/register-state.js';

const undocumented = { undocumented: true };


for (const dialect of testDialects()) {
  describe(`settings and realm events [${dialect}]`, () => {
    let ctx: TestContext;
    let mail: string[];
    before(async () => {
      ctx = await setup(dialect);
      mail = [];
      setMailTransport(ctx.services, { send: async (m) => void mail.push(m.text) });
    });
    after(() => ctx.close());

    const fetchState = (name: DevUserName, userSettingsObject: boolean) =>
      fetchStateOf(ctx, name, { capabilities: { user_settings_object: userSettingsObject } });

    /** For each watcher: the old state plus the events it got equals a fresh state (in both client forms). */
    async function verify(watchers: DevUserName[], action: () => Promise<void>) {
      const before = new Map<string, InitialState>();
      for (const name of watchers) for (const modern of [true, false]) before.set(`${name}/${modern}`, await fetchState(name, modern));
      ctx.clearEvents();
      await action();
      assert.ok(ctx.events.length > 0, 'the action sent no events');
      let id = 0;
      for (const { event } of ctx.events) checkEvent({ ...event, id: id++ });
      for (const name of watchers) {
        const user = ctx.seed.users[name];
        for (const modern of [true, false]) {
          const old = before.get(`${name}/${modern}`)!;
          const events = ctx.events
            .filter((d) => d.users.includes(user.id))
            .map((d) => structuredClone(d.event))
            // What the queue registry keeps from a client with (or without) the capability.
            .filter((e) => !modern || (e.type !== 'update_display_settings' && e.type !== 'update_global_notifications'));
          applyEvents(old, events, { userId: user.id, role: user.role, includeSubscribers: true });
          assert.deepEqual(old, await fetchState(name, modern), `state of ${name} (user_settings_object ${modern})`);
        }
      }
    }

    it('personal settings, legacy forms included', async () => {
      await verify(['mark', 'mona'], async () => {
        expectSuccess(
          await ctx.as('mark').patch('/settings', {
            default_language: 'de',
            emojiset: 'twitter',
            enable_sounds: false,
            timezone: 'America/New_York',
            web_stream_unreads_count_display_policy: 3,
            presence_enabled: false,
          }),
        );
      });
    });

    it('a new full name', async () => {
      await verify(['mark', 'olivia'], async () => {
        expectSuccess(await ctx.as('mark').patch('/settings', { full_name: 'Marcus Member' }));
      });
    });

    it('a confirmed email change', async () => {
      expectSuccess(await ctx.as('milo').patch('/settings', { email: 'milo.new@example.com' }));
      const path = /\/api\/v1(\/accounts\/confirm_new_email\/[a-z0-9]+)/.exec(mail.at(-1)!)![1]!;
      await verify(['milo', 'mark', 'gus'], async () => {
        expectSuccess(await ctx.anonymous().get(path, {}, undocumented));
      });
    });

    it('realm settings, in update and update_dict form', async () => {
      await verify(['mark', 'olivia', 'gus'], async () => {
        expectSuccess(
          await ctx.as('olivia').patch(
            '/realm',
            {
              name: 'Renamed',
              description: 'A *new* description',
              allow_message_editing: false,
              edit_topic_policy: 2,
              message_content_edit_limit_seconds: 'unlimited',
              move_messages_within_stream_limit_seconds: 3600,
              wildcard_mention_policy: 6,
              allow_edit_history: false,
              create_public_stream_policy: 2,
              invite_to_stream_policy: 4,
              invite_to_realm_policy: 6,
              message_retention_days: 90,
            },
            undocumented,
          ),
        );
      });
    });

    it('realm defaults for new users', async () => {
      await verify(['mark', 'adam'], async () => {
        expectSuccess(await ctx.as('adam').patch('/realm/user_settings_defaults', { emojiset: 'text', enter_sends: true, email_address_visibility: 3 }));
      });
    });

    it('queues give the legacy forms only to clients without user_settings_object', async () => {
      const modern = expectSuccess(
        await ctx.as('mona').post('/register', { client_capabilities: { notification_settings_null: false, user_settings_object: true } }),
      );
      const legacy = expectSuccess(await ctx.as('mona').post('/register', { event_types: ['update_display_settings', 'update_global_notifications'] }));
      expectSuccess(await ctx.as('mona').patch('/settings', { high_contrast_mode: true, enable_digest_emails: false }));
      const poll = async (queue: Record<string, any>) =>
        expectSuccess(await ctx.as('mona').get('/events', { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true })).events;
      const types = (events: Array<Record<string, unknown>>) => events.map((e) => e.type);
      assert.deepEqual(types(await poll(modern)), ['user_settings', 'user_settings']);
      const old = await poll(legacy);
      assert.deepEqual(types(old), ['update_display_settings', 'update_global_notifications']);
      assert.deepEqual(old[0], { type: 'update_display_settings', user: 'mona@confab.test', setting_name: 'high_contrast_mode', setting: true, id: 0 });
    });

    it('a deactivated user loses their key and queue at once; reactivation restores them', async () => {
      const { maya } = ctx.seed.users;
      const queue = expectSuccess(await ctx.as('maya').post('/register', { event_types: ['message'] }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('maya').delete('/users/me'));
      const update = ctx.events.find((d) => d.event.type === 'realm_user')!;
      assert.deepEqual(update.event, { type: 'realm_user', op: 'update', person: { user_id: maya.id, is_active: false } });
      checkEvent({ ...update.event, id: 0 });
      const poll = () => ctx.as('maya').get('/events', { queue_id: queue.queue_id, last_event_id: -1, dont_block: true });
      expectError(await poll(), 'Account is deactivated', 'UNAUTHORIZED', 401);
      expectError(await ctx.as('maya').patch('/settings', { enable_sounds: false }), 'Account is deactivated', 'UNAUTHORIZED', 401);
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').post(`/users/${maya.id}/reactivate`));
      const back = ctx.events.find((d) => d.event.type === 'realm_user')!;
      assert.deepEqual(back.event, { type: 'realm_user', op: 'update', person: { user_id: maya.id, is_active: true } });
      checkEvent({ ...back.event, id: 0 });
      expectSuccess(await new ApiClient(ctx.app, ApiClient.basic(maya.delivery_email, maya.api_key)).get('/users/me'));
    });
  });
}
