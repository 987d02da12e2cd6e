// Drafts, scheduled messages, muted users, alert words, topic visibility and subscription properties: every event
// matches the reference schema, and an earlier /register state plus the events equals a fresh one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { deliverDueScheduledMessages } from '../../src/actions/scheduled-delivery.js';
import { applyEvents } from '../../src/events/apply.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';
import { fetchStateOf } from '../support/register-state.js';


/** The state areas these events keep current (muted_topics is asked for alone: it is left out beside user_topic). */
const WITH_USER_TOPIC = ['drafts', 'scheduled_messages', 'muted_users', 'alert_words', 'user_topic', 'subscription', 'message', 'update_message_flags'];
const LEGACY_TOPICS = ['muted_topics'];

for (const dialect of testDialects()) {
  describe(`personal events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const fetchState = (name: DevUserName, wanted: string[] | null) => fetchStateOf(ctx, name, { wanted, includeSubscribers: false });

    /** Runs the action, checks each event's shape, and that old state + events = new state for every wanted set. */
    async function verify(name: DevUserName, action: () => Promise<void>, expectTypes: string[]) {
      const sets = [WITH_USER_TOPIC, LEGACY_TOPICS, null];
      const before = await Promise.all(sets.map((wanted) => fetchState(name, wanted)));
      ctx.clearEvents();
      await action();
      const user = ctx.seed.users[name];
      const events = ctx.events.filter((d) => d.users.includes(user.id)).map((d) => structuredClone(d.event));
      events.forEach((event, id) => {
        const { internal: _internal, sender_queue_id: _queue, ...rest } = event;
        checkEvent({ ...rest, id });
      });
      for (const type of expectTypes) assert.ok(events.some((e) => e.type === type), `expected a ${type} event`);
      for (const [i, wanted] of sets.entries()) {
        const old = before[i]!;
        const unchanged = structuredClone(old);
        applyEvents(old, events, { userId: user.id, role: user.role, includeSubscribers: false });
        // server_timestamp is when each state was read, and the clock moves between the two reads.
        const fresh = { ...(await fetchState(name, wanted)), ...('server_timestamp' in old ? { server_timestamp: old.server_timestamp } : {}) };
        assert.deepEqual(old, fresh, `state for ${JSON.stringify(wanted)}`);
        if (wanted === WITH_USER_TOPIC) assert.notDeepEqual(old, unchanged, 'nothing changed');
      }
    }

    it('drafts: add, update, remove', async () => {
      const { mona, milo } = ctx.seed.users;
      const general = ctx.seed.streams.general.id;
      let ids: number[] = [];
      await verify('mark', async () => {
        ids = expectSuccess(
          await ctx.as('mark').post('/drafts', {
            drafts: [
              { type: 'stream', to: [general], topic: 't', content: 'a', timestamp: 100 },
              { type: 'private', to: [mona.id, milo.id], topic: '', content: 'b', timestamp: 300 },
              { type: '', to: [], topic: '', content: 'c' },
            ],
          }),
        ).ids;
      }, ['drafts']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').patch(`/drafts/${ids[0]}`, { draft: { type: 'private', to: [mona.id], topic: '', content: 'a2', timestamp: 400 } }));
      }, ['drafts']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').delete(`/drafts/${ids[1]}`));
      }, ['drafts']);
    });

    it('scheduled_messages: add, update, failed, delivered, remove', async () => {
      const { mona } = ctx.seed.users;
      const base = Math.floor(ctx.clock.now());
      const ids: number[] = [];
      await verify('mark', async () => {
        for (const body of [
          { type: 'stream', to: String(ctx.seed.streams.general.id), topic: 'later', content: 'one' },
          { type: 'direct', to: JSON.stringify([mona.id]), content: 'two' },
          { type: 'direct', to: JSON.stringify([mona.id]), content: 'three' },
        ]) {
          ids.push(expectSuccess(await ctx.as('mark').post('/scheduled_messages', { ...body, scheduled_delivery_timestamp: base + 600 + ids.length })).scheduled_message_id);
        }
      }, ['scheduled_messages']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').patch(`/scheduled_messages/${ids[0]}`, { content: 'one, edited', scheduled_delivery_timestamp: base + 700 }));
      }, ['scheduled_messages']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').delete(`/scheduled_messages/${ids[1]}`));
      }, ['scheduled_messages']);
      // The third is sent when due; the first, left far behind its time, fails.
      try {
        await verify('mark', async () => {
          ctx.clock.set(base + 602);
          await deliverDueScheduledMessages(ctx.services);
        }, ['scheduled_messages', 'message']);
        await verify('mark', async () => {
          ctx.clock.set(base + 700 + 601);
          await deliverDueScheduledMessages(ctx.services);
        }, ['scheduled_messages', 'message']);
      } finally {
        ctx.clock.set(base);
      }
    });

    it('muted_users, with the read flags of the muted user messages', async () => {
      const { mark, mona } = ctx.seed.users;
      expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'unread one' }));
      expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [mark.id], content: 'unread two' }));
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').post(`/users/me/muted_users/${mona.id}`));
      }, ['muted_users', 'update_message_flags']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [mark.id], content: 'arrives read' }));
      }, ['message']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').delete(`/users/me/muted_users/${mona.id}`));
      }, ['muted_users']);
    });

    it('alert_words', async () => {
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').post('/users/me/alert_words', { alert_words: ['ping', 'pong'] }));
      }, ['alert_words']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'PING!' }));
      }, ['message']);
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').delete('/users/me/alert_words', { alert_words: ['ping'] }));
      }, ['alert_words']);
    });

    it('user_topic and muted_topics: set, change, remove', async () => {
      const general = ctx.seed.streams.general.id;
      const engineering = ctx.seed.streams.engineering.id;
      await verify('mark', async () => {
        expectSuccess(await ctx.as('mark').post('/user_topics', { stream_id: general, topic: 'One', visibility_policy: 1 }));
        expectSuccess(await ctx.as('mark').post('/user_topics', { stream_id: engineering, topic: 'Two', visibility_policy: 3 }));
        expectSuccess(await ctx.as('mark').patch('/users/me/subscriptions/muted_topics', { stream_id: general, topic: 'Three', op: 'add' }));
      }, ['user_topic', 'muted_topics']);
      await verify('mark', async () => {
        ctx.clock.advance(5);
        expectSuccess(await ctx.as('mark').post('/user_topics', { stream_id: general, topic: 'ONE', visibility_policy: 2 }));
        expectSuccess(await ctx.as('mark').post('/user_topics', { stream_id: engineering, topic: 'two', visibility_policy: 0 }));
      }, ['user_topic', 'muted_topics']);
    });

    it('subscription update, for every property and for null', async () => {
      const general = ctx.seed.streams.general.id;
      await verify('mark', async () => {
        const changes = [
          ['color', '#123456'],
          ['is_muted', true],
          ['in_home_view', true],
          ['pin_to_top', true],
          ['desktop_notifications', true],
          ['audible_notifications', false],
          ['push_notifications', true],
          ['email_notifications', true],
          ['wildcard_mentions_notify', false],
        ].map(([property, value]) => ({ stream_id: general, property, value }));
        expectSuccess(await ctx.as('mark').post('/users/me/subscriptions/properties', { subscription_data: changes }));
      }, ['subscription']);
      await verify('mark', async () => {
        expectSuccess(
          await ctx.as('mark').post('/users/me/subscriptions/properties', {
            subscription_data: [{ stream_id: general, property: 'desktop_notifications', value: null }],
          }),
        );
      }, ['subscription']);
    });

    it('register: every subscription carries the fields of the spec table', async () => {
      const state = await fetchState('mark', ['subscription']);
      const fields = [
        'stream_id', 'name', 'description', 'rendered_description', 'date_created', 'invite_only',
        'desktop_notifications', 'email_notifications', 'wildcard_mentions_notify', 'push_notifications', 'audible_notifications',
        'color', 'is_muted', 'in_home_view', 'pin_to_top',
      ];
      for (const sub of state.subscriptions as Array<Record<string, unknown>>) {
        for (const field of fields) assert.ok(field in sub, `subscription lacks ${field}`);
      }
    });
  });
}
