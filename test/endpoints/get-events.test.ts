import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { UserRow } from '../../src/db/schema.js';
import type { QueueSpec } from '../../src/events/types.js';
import { queueSpec } from '../support/queue-spec.js';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { avatarPath, gravatarUrl, setGravatarEnabled } from '../../src/lib/user-format.js';
import { waitUntil } from '../support/wait.js';

for (const dialect of testDialects()) {
  // Heartbeats far off, so that only the event can end the wait however slow the send is.
  describe(`GET /events, a waiting poll [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect, { config: { heartbeatMinSeconds: 30, heartbeatMaxSeconds: 30 } })));
    after(() => ctx.close());

    it('wakes when an event arrives', async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
      const waiting = ctx.as('mona').get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: false });
      await waitUntil(() => ctx.services.queues.waitingPolls() === 1);
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'wake', content: 'up' }));
      const body = expectSuccess(await waiting);
      assert.deepEqual(body.events.map((e: { type: string; id: number }) => [e.type, e.id]), [['message', 0]]);
      assert.equal(ctx.services.queues.waitingPolls(), 0);
    });
  });

  describe(`GET /events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect, { config: { heartbeatMinSeconds: 0.05, heartbeatMaxSeconds: 0.1 } })));
    after(() => ctx.close());
    beforeEach(() => ctx.clearEvents());

    const create = (user: UserRow, extra: Partial<QueueSpec> = {}) => ctx.services.queues.create(queueSpec(user, extra));
    const poll = (who: 'mark' | 'mona' | 'olivia', queue_id: string, extra: Record<string, unknown> = {}) =>
      ctx.as(who).get('/events', { queue_id, last_event_id: -1, dont_block: true, ...extra });
    const sendToGeneral = (who: 'mark' | 'mona', topic: string, content: string, extra: Record<string, unknown> = {}) =>
      ctx.as(who).post('/messages', { type: 'stream', to: 'general', topic, content, ...extra });

    it('returns nothing at once under dont_block, then the events that arrived', async () => {
      const { mona } = ctx.seed.users;
      const queue = await create(mona);
      assert.deepEqual(expectSuccess(await poll('mona', queue.id)), { result: 'success', msg: '', events: [], queue_id: queue.id });
      const sent = expectSuccess(await sendToGeneral('mark', 'hello', 'hi there'));
      const body = expectSuccess(await poll('mona', queue.id));
      assert.equal(body.queue_id, queue.id);
      assert.equal(body.events.length, 1);
      const [event] = body.events;
      assert.deepEqual(Object.keys(event).sort(), ['flags', 'id', 'message', 'type']);
      assert.equal(event.id, 0);
      assert.deepEqual(event.flags, []);
      assert.equal(event.message.id, sent.id);
      assert.equal(event.message.content, '<p>hi there</p>');
      assert.equal(event.message.content_type, 'text/html');
      // Acknowledged events are gone.
      assert.deepEqual(expectSuccess(await poll('mona', queue.id, { last_event_id: 0 })).events, []);
    });

    it('leaves the legacy muted_topics event out for clients that take user_topic', async () => {
      const { mark } = ctx.seed.users;
      const legacy = await create(mark, { eventTypes: ['muted_topics'] });
      const modern = await create(mark, { eventTypes: ['muted_topics', 'user_topic'] });
      expectSuccess(
        await ctx.as('mark').post('/user_topics', { stream_id: ctx.seed.streams.general.id, topic: 'quiet', visibility_policy: 1 }),
      );
      const types = async (queueId: string) => expectSuccess(await poll('mark', queueId)).events.map((e: { type: string }) => e.type);
      assert.deepEqual(await types(legacy.id), ['muted_topics']);
      assert.deepEqual(await types(modern.id), ['user_topic']);
    });

    it('sends realm_linkifiers events only to clients that declared linkifier_url_template', async () => {
      const { olivia } = ctx.seed.users;
      const capabilities = (linkifier_url_template: boolean) => ({ ...queueSpec(olivia).capabilities, linkifier_url_template });
      const old = await create(olivia, { capabilities: capabilities(false) });
      const current = await create(olivia, { capabilities: capabilities(true) });
      expectSuccess(await ctx.as('olivia').post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.test/{id}' }));
      const types = async (queueId: string) => expectSuccess(await poll('olivia', queueId)).events.map((e: { type: string }) => e.type);
      assert.deepEqual(await types(old.id), []);
      assert.deepEqual(await types(current.id), ['realm_linkifiers']);
    });

    it('gives queues registered with all_public_streams the messages of every public stream', async () => {
      const register = async (who: 'mark' | 'mona', all_public_streams: boolean) =>
        expectSuccess(await ctx.as(who).post('/register', { event_types: ['message'], all_public_streams })).queue_id as string;
      const everything = await register('mona', true);
      const ownStreams = await register('mona', false);
      const subscriber = await register('mark', true);
      const messages = async (who: 'mark' | 'mona', queueId: string) =>
        expectSuccess(await poll(who, queueId)).events.map((e: { message: { id: number }; flags: string[] }) => [e.message.id, e.flags]);
      // mona is not in #engineering (public) nor in #leadership (private); mark is in #engineering.
      const post = async (who: 'mark' | 'olivia', to: string) =>
        expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to, topic: 'all public', content: 'Hi @**all**' })).id as number;
      const publicId = await post('olivia', 'engineering');
      await post('olivia', 'leadership');
      assert.deepEqual(await messages('mona', everything), [[publicId, []]]);
      assert.deepEqual(await messages('mona', ownStreams), []);
      // A subscriber's queue gets the message once, with the subscriber's own flags.
      assert.deepEqual(await messages('mark', subscriber), [[publicId, ['stream_wildcard_mentioned', 'wildcard_mentioned']]]);
    });

    it('answers each poll once, and keeps the heartbeat of a poll that took over the queue', async () => {
      const { mona } = ctx.seed.users;
      const queue = await create(mona);
      const request = { queueId: queue.id, userId: mona.id, lastEventId: -1, dontBlock: false };
      const first: string[][] = [];
      const second: string[][] = [];
      let firstGoesAway = () => {};
      ctx.services.queues.wait({ ...request, onDisconnect: (listener) => (firstGoesAway = listener) }, (events) => first.push(events!.map((e) => e.type)));
      ctx.services.queues.wait(request, (events) => second.push(events!.map((e) => e.type)));
      // The newer poll ends the older one with nothing; the older client leaving later changes nothing.
      assert.deepEqual(first, [[]]);
      firstGoesAway();
      assert.deepEqual(first, [[]]);
      await waitUntil(() => second.length > 0);
      assert.deepEqual(second, [['heartbeat']]);
    });

    it('answers a quiet poll with a heartbeat', async () => {
      const queue = await create(ctx.seed.users.mona);
      const body = expectSuccess(await poll('mona', queue.id, { dont_block: false }));
      assert.deepEqual(body.events, [{ type: 'heartbeat', id: 0 }]);
      assert.deepEqual(expectSuccess(await poll('mona', queue.id, { last_event_id: 0 })).events, []);
    });

    it('reports the pruning errors', async () => {
      const { mona } = ctx.seed.users;
      const queue = await create(mona);
      ctx.services.bus.publish([1, 2, 3].map((n) => ({ event: { type: 'alert_words', alert_words: [`w${n}`] }, users: [mona.id] })));
      expectSuccess(await poll('mona', queue.id, { last_event_id: 1 }));
      expectError(await poll('mona', queue.id, { last_event_id: 0 }), 'An event newer than 0 has already been pruned!');
      expectError(await poll('mona', queue.id, { last_event_id: 7 }), 'Event 7 was not in this queue');
    });

    it("refuses an unknown queue and another user's queue", async () => {
      const queue = await create(ctx.seed.users.mona);
      const other = expectError(await poll('mark', queue.id), `Bad event queue ID: ${queue.id}`, 'BAD_EVENT_QUEUE_ID');
      assert.equal(other.queue_id, queue.id);
      const unknown = expectError(await poll('mark', 'no-such-queue'), 'Bad event queue ID: no-such-queue', 'BAD_EVENT_QUEUE_ID');
      assert.equal(unknown.queue_id, 'no-such-queue');
    });

    it('needs queue_id and last_event_id', async () => {
      const queue = await create(ctx.seed.users.mona);
      expectError(await ctx.as('mona').get('/events', { last_event_id: -1 }), "Missing 'queue_id' argument");
      expectError(await ctx.as('mona').get('/events', { queue_id: queue.id }), "Missing 'last_event_id' argument");
      expectError(await ctx.as('mona').get('/events', { queue_id: queue.id, last_event_id: 'x' }), 'last_event_id is not valid JSON');
    });

    it('registers a queue itself when called without one and with dont_block', async () => {
      const { mona } = ctx.seed.users;
      const made = expectSuccess(
        await ctx.as('mona').get('/events', { dont_block: true, event_types: ['message'], narrow: [['topic', 'via get']], apply_markdown: true }),
      );
      assert.deepEqual(made.events, []);
      assert.match(made.queue_id, /^[0-9a-f-]{36}$/);
      const queue = ctx.services.queues.get(made.queue_id)!;
      assert.equal(queue.spec.userId, mona.id);
      assert.deepEqual(queue.spec.eventTypes, ['message']);
      assert.equal(queue.spec.applyMarkdown, true);
      expectSuccess(await sendToGeneral('mark', 'other topic', 'skip me'));
      const kept = expectSuccess(await sendToGeneral('mark', 'via get', 'keep me'));
      const events = expectSuccess(await poll('mona', made.queue_id)).events;
      assert.deepEqual(events.map((e: any) => e.message.id), [kept.id]);
      expectError(await ctx.as('mona').get('/events', { dont_block: true, narrow: [['search', 'x']] }), 'Operator search not supported.');
      expectError(await ctx.as('gus').get('/events', { dont_block: true, all_public_streams: true }), 'User not authorized for this query');
    });

    it('keeps only message events that fit the narrow', async () => {
      const { mona } = ctx.seed.users;
      const queue = await create(mona, { narrow: [{ operator: 'topic', operand: 'narrowed', negated: false }] });
      expectSuccess(await sendToGeneral('mark', 'other', 'skip me'));
      const kept = expectSuccess(await sendToGeneral('mark', 'Narrowed', 'keep me'));
      ctx.services.bus.publish([{ event: { type: 'alert_words', alert_words: [] }, users: [mona.id] }]);
      const events = expectSuccess(await poll('mona', queue.id)).events;
      assert.deepEqual(events.map((e: any) => [e.type, e.message?.id]), [['message', kept.id], ['alert_words', undefined]]);
    });

    it('lets a narrow on followed or muted topics follow later changes to them', async () => {
      const { mona } = ctx.seed.users;
      const followed = await create(mona, { narrow: [{ operator: 'is', operand: 'followed', negated: false }] });
      const home = await create(mona, { narrow: [{ operator: 'in', operand: 'home', negated: false }] });
      const general = ctx.seed.streams.general.id;
      const messages = async (queueId: string) =>
        expectSuccess(await poll('mona', queueId)).events.filter((e: { type: string }) => e.type === 'message').map((e: any) => e.message.content);
      expectSuccess(await sendToGeneral('mark', 'kept up', 'before'));
      expectSuccess(await ctx.as('mona').post('/user_topics', { stream_id: general, topic: 'kept up', visibility_policy: 3 }));
      expectSuccess(await ctx.as('mona').post('/user_topics', { stream_id: general, topic: 'hushed', visibility_policy: 1 }));
      await ctx.services.queues.settle();
      expectSuccess(await sendToGeneral('mark', 'kept up', 'after'));
      expectSuccess(await sendToGeneral('mark', 'hushed', 'quiet'));
      assert.deepEqual(await messages(followed.id), ['<p>after</p>']);
      assert.deepEqual(await messages(home.id), ['<p>before</p>', '<p>after</p>']);
    });

    it('keeps only the event types asked for', async () => {
      const { mona } = ctx.seed.users;
      const queue = await create(mona, { eventTypes: ['alert_words'] });
      expectSuccess(await sendToGeneral('mark', 'types', 'x'));
      ctx.services.bus.publish([{ event: { type: 'alert_words', alert_words: ['a'] }, users: [mona.id] }]);
      const events = expectSuccess(await poll('mona', queue.id)).events;
      // The filtered-out message took no id.
      assert.deepEqual(events, [{ type: 'alert_words', alert_words: ['a'], id: 0 }]);
    });

    it('gives raw Markdown to apply_markdown false clients', async () => {
      const queue = await create(ctx.seed.users.mona, { applyMarkdown: false });
      expectSuccess(await sendToGeneral('mark', 'raw', 'raw *text*'));
      const [event] = expectSuccess(await poll('mona', queue.id)).events;
      assert.equal(event.message.content, 'raw *text*');
      assert.equal(event.message.content_type, 'text/x-markdown');
      assert.equal(event.internal, undefined);
    });

    it('sends client_gravatar clients real avatar URLs while Gravatar is off (the default)', async () => {
      const { mark, olivia } = ctx.seed.users;
      const queue = await create(olivia, { clientGravatar: true });
      expectSuccess(await sendToGeneral('mark', 'avatars', 'no gravatar'));
      assert.equal(expectSuccess(await poll('olivia', queue.id)).events[0].message.avatar_url, `${avatarPath(ctx.seed.realm.id, mark.id)}?version=1`);
    });

    it('with --enable-gravatar, leaves avatar_url null for client_gravatar clients only when the sender email is public', async (t) => {
      const { mark, mona, olivia } = ctx.seed.users;
      setGravatarEnabled(true);
      t.after(() => setGravatarEnabled(false));
      const admins = await create(olivia, { clientGravatar: true });
      const member = await create(mona, { clientGravatar: true });
      const plain = await create(olivia);
      expectSuccess(await sendToGeneral('mark', 'avatars', 'x'));
      assert.equal(expectSuccess(await poll('olivia', admins.id)).events[0].message.avatar_url, null);
      assert.equal(expectSuccess(await poll('mona', member.id)).events[0].message.avatar_url, null);
      assert.equal(expectSuccess(await poll('olivia', plain.id)).events[0].message.avatar_url, gravatarUrl('mark@confab.test', 1));
      // A hidden address: nobody could derive the gravatar, and the one sent is of the placeholder.
      const placeholder = `user${mark.id}@confab.test`;
      await ctx.services.db
        .updateTable('user_profile')
        .set({ email: placeholder, settings: JSON.stringify({ email_address_visibility: 3 }) })
        .where('id', '=', mark.id)
        .execute();
      try {
        expectSuccess(await sendToGeneral('mark', 'avatars', 'y'));
        const admin = expectSuccess(await poll('olivia', admins.id)).events.at(-1);
        assert.equal(admin.message.avatar_url, gravatarUrl(placeholder, 1));
        assert.equal(admin.message.sender_email, placeholder);
        assert.equal(expectSuccess(await poll('mona', member.id)).events.at(-1).message.avatar_url, gravatarUrl(placeholder, 1));
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ email: mark.email, settings: mark.settings }).where('id', '=', mark.id).execute();
      }
    });

    it('echoes local_message_id to the sending queue only, and sender_queue_id to nobody', async () => {
      const { mark } = ctx.seed.users;
      const sending = await create(mark);
      const otherTab = await create(mark);
      expectSuccess(await sendToGeneral('mark', 'local', 'x', { queue_id: sending.id, local_id: '12.01' }));
      const own = expectSuccess(await ctx.as('mark').get('/events', { queue_id: sending.id, last_event_id: -1, dont_block: true })).events[0];
      assert.equal(own.local_message_id, '12.01');
      assert.equal(own.sender_queue_id, undefined);
      const [other] = expectSuccess(await poll('mark', otherTab.id)).events;
      assert.equal(other.local_message_id, undefined);
      assert.equal(other.sender_queue_id, undefined);
    });

    it('splits bulk deletions for clients without bulk_message_deletion', async () => {
      const { mona } = ctx.seed.users;
      const capabilities = { ...queueSpec(mona).capabilities, bulk_message_deletion: false };
      const bulk = await create(mona);
      const single = await create(mona, { capabilities });
      const id = expectSuccess(await sendToGeneral('mark', 'delete', 'x')).id as number;
      expectSuccess(await ctx.as('mark').delete(`/messages/${id}`));
      const generalId = ctx.seed.streams.general.id;
      const common = { type: 'delete_message', message_type: 'stream', stream_id: generalId, topic: 'delete' };
      assert.deepEqual(expectSuccess(await poll('mona', bulk.id)).events[1], { ...common, message_ids: [id], id: 1 });
      assert.deepEqual(expectSuccess(await poll('mona', single.id)).events[1], { ...common, message_id: id, id: 1 });
      ctx.services.bus.publish([{ event: { ...common, message_ids: [id, id + 1] }, users: [mona.id] }]);
      const split = expectSuccess(await poll('mona', single.id, { last_event_id: 1 })).events;
      assert.deepEqual(split.map((e: any) => [e.id, e.message_id]), [[2, id], [3, id + 1]]);
    });

    it('sends stream typing events only to clients that declared them', async () => {
      const { mark, mona } = ctx.seed.users;
      const capabilities = { ...queueSpec(mona).capabilities, stream_typing_notifications: false };
      const modern = await create(mona);
      const old = await create(mona, { capabilities });
      const sender = { user_id: mark.id, email: mark.email };
      ctx.services.bus.publish([
        { event: { type: 'typing', op: 'start', message_type: 'stream', sender, stream_id: ctx.seed.streams.general.id, topic: 't' }, users: [mona.id] },
        { event: { type: 'typing', op: 'start', message_type: 'direct', sender, recipients: [sender] }, users: [mona.id] },
      ]);
      assert.deepEqual(expectSuccess(await poll('mona', modern.id)).events.map((e: any) => e.message_type), ['stream', 'direct']);
      assert.deepEqual(expectSuccess(await poll('mona', old.id)).events.map((e: any) => e.message_type), ['direct']);
    });

    it('collects idle queues, but not one with a poll connected', async () => {
      const { mona } = ctx.seed.users;
      const idle = await create(mona);
      const short = await create(mona, { idleSeconds: 5 });
      const busy = await create(mona, { idleSeconds: 5 });
      const waiting = poll('mona', busy.id, { dont_block: false });
      await waitUntil(() => ctx.services.queues.get(busy.id)!.waiting);
      ctx.clock.advance(6);
      ctx.services.queues.sweep();
      assert.equal(ctx.services.queues.get(short.id), undefined);
      assert.ok(ctx.services.queues.get(busy.id));
      assert.ok(ctx.services.queues.get(idle.id));
      expectSuccess(await waiting);
      ctx.clock.advance(ctx.services.config.queueIdleSeconds);
      ctx.services.queues.sweep();
      assert.equal(ctx.services.queues.get(idle.id), undefined);
      expectError(await poll('mona', idle.id), `Bad event queue ID: ${idle.id}`, 'BAD_EVENT_QUEUE_ID');
    });

    it('drops the waiting poll when the client disconnects', async () => {
      const { mona } = ctx.seed.users;
      const queue = await create(mona);
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = ctx.app.server.address() as AddressInfo;
      const req = request({
        host: '127.0.0.1',
        port,
        path: `/api/v1/events?queue_id=${queue.id}&last_event_id=-1`,
        headers: { authorization: ApiClient.basic(mona.delivery_email, mona.api_key) },
      });
      req.on('error', () => {});
      req.end();
      const deadline = Date.now() + 2000;
      while (ctx.services.queues.waitingPolls() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.equal(ctx.services.queues.waitingPolls(), 1);
      req.destroy();
      while (ctx.services.queues.waitingPolls() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.equal(ctx.services.queues.waitingPolls(), 0);
      // The queue stays usable, and no heartbeat was left behind to land in it.
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(expectSuccess(await poll('mona', queue.id)).events, []);
    });
  });
}
