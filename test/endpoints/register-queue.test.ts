import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { registerQueue } from '../../src/events/state/register.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import type { EventQueues, QueueSpec } from '../../src/events/types.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /register [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers a queue id, -1 as last_event_id, the version fields and every state area', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register'));
      assert.match(body.queue_id, /^[0-9a-f-]{36}$/);
      assert.equal(body.last_event_id, -1);
      assert.equal(body.zulip_feature_level, 229);
      assert.equal(body.service_feature_level, 229);
      assert.equal(typeof body.zulip_version, 'string');
      assert.equal(typeof body.zulip_merge_base, 'string');
      for (const key of [
        'realm_users', 'subscriptions', 'never_subscribed', 'unsubscribed', 'streams', 'max_message_id', 'unread_msgs',
        'user_settings', 'realm_user_settings_defaults', 'drafts', 'realm_linkifiers', 'realm_filters',
        'realm_playgrounds', 'muted_users', 'user_topics', 'starred_messages', 'recent_private_conversations',
      ]) {
        assert.ok(key in body, `missing ${key}`);
      }
      assert.ok(ctx.services.queues.get(body.queue_id));
    });

    it('reports the realm settings and the server constants', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
      assert.equal(body.realm_users, undefined);
      assert.deepEqual(
        {
          max_message_length: body.max_message_length,
          max_topic_length: body.max_topic_length,
          max_stream_name_length: body.max_stream_name_length,
          max_stream_description_length: body.max_stream_description_length,
          server_typing_started_expiry_period_milliseconds: body.server_typing_started_expiry_period_milliseconds,
          server_typing_stopped_wait_period_milliseconds: body.server_typing_stopped_wait_period_milliseconds,
          server_typing_started_wait_period_milliseconds: body.server_typing_started_wait_period_milliseconds,
          event_queue_longpoll_timeout_seconds: body.event_queue_longpoll_timeout_seconds,
        },
        {
          max_message_length: 10000,
          max_topic_length: 60,
          max_stream_name_length: 60,
          max_stream_description_length: 1024,
          server_typing_started_expiry_period_milliseconds: 45000,
          server_typing_stopped_wait_period_milliseconds: 12000,
          server_typing_started_wait_period_milliseconds: 30000,
          event_queue_longpoll_timeout_seconds: 90,
        },
      );
      assert.equal(body.realm_name, 'Confab Dev');
      assert.equal(body.realm_url, ctx.seed.realm.url);
      assert.equal(body.realm_uri, ctx.seed.realm.url);
      assert.equal(body.realm_date_created, ctx.seed.realm.date_created);
      assert.equal(body.realm_allow_message_editing, true);
      assert.equal(body.realm_edit_topic_policy, 5);
      assert.equal(body.realm_move_messages_between_streams_policy, 1);
      assert.equal(body.realm_wildcard_mention_policy, 5);
      assert.equal(body.realm_message_content_edit_limit_seconds, 600);
      assert.equal(body.realm_message_content_delete_limit_seconds, 600);
      assert.equal(body.realm_move_messages_within_stream_limit_seconds, 604800);
      assert.equal(body.realm_move_messages_between_streams_limit_seconds, 604800);
      assert.equal(body.realm_message_edit_history_visibility_policy, 'all');
      assert.equal(body.realm_allow_edit_history, true);
      assert.equal(body.realm_mandatory_topics, false);
    });

    it("reports the requester's identity with realm_user", async () => {
      const body = expectSuccess(await ctx.as('maya').post('/register', { fetch_event_types: ['realm_user'] }));
      const { maya } = ctx.seed.users;
      assert.equal(body.user_id, maya.id);
      assert.equal(body.email, maya.email);
      assert.equal(body.delivery_email, maya.delivery_email);
      assert.equal(body.full_name, 'Maya Moderator');
      assert.deepEqual([body.is_owner, body.is_admin, body.is_moderator, body.is_guest], [false, false, true, false]);
      assert.deepEqual(body.cross_realm_bots, []);
      const ids = body.realm_users.map((u: any) => u.user_id);
      assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
      assert.ok(ids.includes(ctx.seed.users.welcomeBot.id));
      assert.deepEqual(body.realm_non_active_users, []);
    });

    it('lists subscriptions, never-subscribed streams and visible streams', async () => {
      const body = expectSuccess(
        await ctx.as('mark').post('/register', { fetch_event_types: ['subscription', 'stream'], include_subscribers: true }),
      );
      assert.deepEqual(body.subscriptions.map((s: any) => s.name), ['engineering', 'general']);
      assert.deepEqual(body.never_subscribed.map((s: any) => s.name), ['design']);
      assert.deepEqual(body.unsubscribed, []);
      assert.deepEqual(body.streams.map((s: any) => s.name), ['design', 'engineering', 'general']);
      const { olivia, adam, mark, milo } = ctx.seed.users;
      assert.deepEqual(body.subscriptions[0].subscribers, [olivia.id, adam.id, mark.id, milo.id].sort((a, b) => a - b));
      const without = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['subscription'] }));
      assert.equal(without.subscriptions[0].subscribers, undefined);
    });

    it('summarises unread messages only when message and update_message_flags are both asked for', async () => {
      const { mark, mona } = ctx.seed.users;
      const sent = expectSuccess(await ctx.as('mona').post('/messages', { type: 'private', to: [mark.id], content: 'hi' }));
      await ctx.store.db.updateTable('user_message').set({ flags: sql<number>`flags | ${FLAG_BITS.mentioned}` }).where('user_id', '=', mark.id).where('message_id', '=', sent.id).execute();
      const both = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['message', 'update_message_flags'] }));
      assert.equal(both.max_message_id, sent.id);
      const pm = both.unread_msgs.pms.find((g: any) => g.other_user_id === mona.id);
      assert.deepEqual(pm, { other_user_id: mona.id, sender_id: mona.id, unread_message_ids: [sent.id] });
      assert.ok(both.unread_msgs.mentions.includes(sent.id));
      assert.equal(both.unread_msgs.old_unreads_missing, false);
      const onlyMessage = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['message'] }));
      assert.equal(onlyMessage.unread_msgs, undefined);
      assert.equal(onlyMessage.max_message_id, sent.id);
      const recent = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['recent_private_conversations'] }));
      assert.deepEqual(recent.recent_private_conversations[0], { max_message_id: sent.id, user_ids: [mona.id] });
    });

    it('gives the user_settings object, and the legacy form only to clients without user_settings_object', async () => {
      const legacy = expectSuccess(
        await ctx.as('mark').post('/register', {
          fetch_event_types: ['user_settings', 'update_display_settings', 'update_global_notifications'],
        }),
      );
      assert.equal(legacy.user_settings.emojiset, 'vendora');
      assert.equal(legacy.user_settings.enter_sends, false);
      assert.deepEqual(legacy.user_settings.available_notification_sounds, ['zulip']);
      assert.equal(legacy.emojiset, 'vendora');
      assert.equal(legacy.enable_sounds, true);
      assert.ok(Array.isArray(legacy.emojiset_choices));
      const modern = expectSuccess(
        await ctx.as('mark').post('/register', {
          fetch_event_types: ['user_settings', 'update_display_settings', 'update_global_notifications'],
          client_capabilities: { notification_settings_null: true, user_settings_object: true },
        }),
      );
      assert.equal(modern.user_settings.emojiset, 'vendora');
      assert.equal(modern.emojiset, undefined);
      assert.equal(modern.enable_sounds, undefined);
    });

    it('gives realm_user_settings_defaults from the settings registry', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm_user_settings_defaults'] }));
      assert.equal(body.realm_user_settings_defaults.web_home_view, 'inbox');
      assert.equal(body.realm_user_settings_defaults.timezone, undefined);
    });

    it('gives the legacy muted_topics only when user_topic is not also asked for', async () => {
      const { general } = ctx.seed.streams;
      const mark = ctx.seed.users.mark;
      await ctx.store.db
        .insertInto('user_topic')
        .values({ user_id: mark.id, stream_id: general.id, recipient_id: general.recipient_id!, topic_name: 'noise', last_updated: 1700000000, visibility_policy: 1 })
        .execute();
      const legacy = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['muted_topics'] }));
      assert.deepEqual(legacy.muted_topics, [['general', 'noise', 1700000000]]);
      const both = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['muted_topics', 'user_topic'] }));
      assert.equal(both.muted_topics, undefined);
      assert.deepEqual(both.user_topics, [{ stream_id: general.id, topic_name: 'noise', last_updated: 1700000000, visibility_policy: 1 }]);
    });

    it('gives the empty lists of areas without stores yet', async () => {
      const body = expectSuccess(
        await ctx.as('mark').post('/register', {
          fetch_event_types: ['drafts', 'realm_linkifiers', 'realm_filters', 'realm_playgrounds', 'muted_users', 'starred_messages'],
        }),
      );
      assert.deepEqual(
        [body.drafts, body.realm_linkifiers, body.realm_filters, body.realm_playgrounds, body.muted_users, body.starred_messages],
        [[], [], [], [], [], []],
      );
    });

    it('refuses all_public_streams to guests', async () => {
      expectError(await ctx.as('gus').post('/register', { all_public_streams: true }), 'User not authorized for this query');
      expectSuccess(await ctx.as('mark').post('/register', { all_public_streams: true, fetch_event_types: [] }));
    });

    it('checks the narrow', async () => {
      expectError(await ctx.as('mark').post('/register', { narrow: [['stream']] }), 'Invalid narrow[0]: Value error, element is not a string pair');
      expectError(await ctx.as('mark').post('/register', { narrow: [['stream', 1]] }), 'Invalid narrow[0]: Value error, element is not a string pair');
      expectError(await ctx.as('mark').post('/register', { narrow: [['stream', 'general'], {}] }), 'Invalid narrow[1]: Value error, element is not a string pair');
      expectError(await ctx.as('mark').post('/register', { narrow: [['search', 'x']] }), 'Operator search not supported.');
      expectError(await ctx.as('mark').post('/register', { narrow: [['is', 'followed']] }), 'Operand followed not supported.');
      expectError(await ctx.as('mark').post('/register', { narrow: 'nope' }), 'narrow is not valid JSON');
      const ok = expectSuccess(
        await ctx.as('mark').post('/register', { narrow: [['stream', 'general'], ['topic', 'x'], ['sender', 'mona@confab.test'], ['is', 'starred']], fetch_event_types: [] }),
      );
      assert.equal(ctx.services.queues.get(ok.queue_id)!.spec.narrow.length, 4);
    });

    it('checks the client capabilities', async () => {
      expectError(
        await ctx.as('mark').post('/register', { client_capabilities: { bulk_message_deletion: true } }),
        'client_capabilities["notification_settings_null"] field is missing',
      );
      expectError(
        await ctx.as('mark').post('/register', { client_capabilities: { notification_settings_null: 'yes' } }),
        'client_capabilities["notification_settings_null"] is not a boolean',
      );
      expectError(await ctx.as('mark').post('/register', { client_capabilities: [] }), 'client_capabilities is not a dict');
      const ok = expectSuccess(
        await ctx.as('mark').post('/register', {
          client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, some_future_flag: true },
          fetch_event_types: [],
        }),
      );
      assert.deepEqual(ctx.services.queues.get(ok.queue_id)!.spec.capabilities, {
        notification_settings_null: true,
        bulk_message_deletion: true,
        user_avatar_url_field_optional: false,
        stream_typing_notifications: false,
        user_settings_object: false,
        linkifier_url_template: false,
      });
    });

    it('checks the other parameters and passes them to the queue', async () => {
      expectError(await ctx.as('mark').post('/register', { event_types: 'message' }), 'event_types is not valid JSON');
      expectError(await ctx.as('mark').post('/register', { event_types: [1] }), 'event_types[0] is not a string');
      expectError(await ctx.as('mark').post('/register', { apply_markdown: 'maybe' }), 'apply_markdown is not valid JSON');
      expectError(await ctx.as('mark').post('/register', { queue_lifespan_secs: -1 }), 'queue_lifespan_secs is too small');
      const body = expectSuccess(await ctx.as('mark').post('/register', { event_types: ['message'], apply_markdown: true, client_gravatar: false }));
      const spec = ctx.services.queues.get(body.queue_id)!.spec;
      assert.deepEqual([spec.eventTypes, spec.applyMarkdown, spec.clientGravatar, spec.allPublicStreams], [['message'], true, false, false]);
      // event_types also decides the state when fetch_event_types is absent.
      assert.equal(body.realm_users, undefined);
      assert.equal(typeof body.max_message_id, 'number');
    });

    it('folds the events the queue caught while the state was read, and reports the last one', async () => {
      const pending = [
        { id: 0, type: 'message', flags: [], message: { id: 2_000_000, type: 'stream', stream_id: ctx.seed.streams.general.id, subject: 'late' } },
        { id: 3, type: 'heartbeat' },
      ];
      const queues: Pick<EventQueues, 'create'> = {
        create: async (spec: QueueSpec) => ({ id: 'caught-up', spec, pending: () => pending }),
      };
      const { mark } = ctx.seed.users;
      const body = await registerQueue({ db: ctx.store.db, queues, now: 0, development: true }, mark, ctx.seed.realm, {
        eventTypes: ['message', 'update_message_flags'],
        fetchEventTypes: null,
        narrow: [],
        capabilities: { notification_settings_null: false, bulk_message_deletion: false, user_avatar_url_field_optional: false, stream_typing_notifications: false, user_settings_object: false, linkifier_url_template: false },
        applyMarkdown: false,
        clientGravatar: true,
        allPublicStreams: false,
        includeSubscribers: false,
        queueLifespanSecs: 0,
      });
      assert.equal(body.queue_id, 'caught-up');
      assert.equal(body.last_event_id, 3);
      assert.equal(body.max_message_id, 2_000_000);
      const group = (body.unread_msgs as any).streams.find((g: any) => g.topic === 'late');
      assert.deepEqual(group.unread_message_ids, [2_000_000]);
    });
  });
}
