// Every kind of event the server sends, triggered through the API and checked against the event
// schemas of the reference's GET /events response (with SPEC.md's differences applied).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';

/**
 * The event as a client's queue hands it out: the queue registry removes what it alone reads
 * (`internal`, and `sender_queue_id`, which decides which queue gets local_message_id) and adds `id`.
 */
function asDelivered(event: Record<string, unknown>, id: number): Record<string, unknown> {
  const { internal: _internal, sender_queue_id: _queue, ...rest } = event;
  return { ...rest, id };
}

const kindOf = (event: Record<string, unknown>) => ('op' in event ? `${event.type}/${event.op}` : String(event.type));

for (const dialect of testDialects()) {
  describe(`event shapes [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    /** Runs `trigger`, checks every event it published and returns the kinds seen (type/op). */
    async function eventsOf(trigger: () => Promise<unknown>): Promise<Set<string>> {
      ctx.clearEvents();
      await trigger();
      let id = 0;
      for (const { event } of ctx.events) checkEvent(asDelivered(event, id++));
      return new Set(ctx.events.map((d) => kindOf(d.event)));
    }

    const expectKinds = (seen: Set<string>, ...kinds: string[]) => {
      for (const kind of kinds) assert.ok(seen.has(kind), `expected a ${kind} event among ${[...seen].join(', ') || 'none'}`);
    };

    it('message, for a stream and a direct message, with the flags each recipient gets', async () => {
      const { mona, milo } = ctx.seed.users;
      const seen = await eventsOf(async () => {
        const stream = { type: 'stream', to: 'engineering', topic: 'shapes', content: 'Hi **all**', read_by_sender: true };
        expectSuccess(await ctx.as('mark').post('/messages', { ...stream, queue_id: 'q1', local_id: '1.01' }));
        expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id, milo.id], content: 'Hello, both', read_by_sender: true }));
      });
      expectKinds(seen, 'message');
      // Per message: the sender (read) and everyone else (no flags); local_message_id for the sender only.
      const { mark } = ctx.seed.users;
      const addressed = ctx.events.filter((d) => d.users.length > 0);
      const summary = addressed.map((d) => [d.users.includes(mark.id), d.event.flags, d.event.local_message_id ?? null]);
      assert.equal(summary.length, 4);
      // And one copy of the public stream message, without flags, for all_public_streams queues.
      const unaddressed = ctx.events.filter((d) => d.users.length === 0);
      assert.deepEqual(unaddressed.map((d) => [d.event.message_type ?? (d.event.message as { type: string }).type, d.event.flags]), [['stream', []]]);
      for (const [isSender, flags] of summary) assert.deepEqual(flags, isSender ? ['read'] : []);
      assert.deepEqual(summary.filter(([isSender]) => isSender).map(([, , local]) => local), ['1.01', null]);
    });

    it('delete_message, for a stream and a direct message', async () => {
      const { mona } = ctx.seed.users;
      const stream = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'gone', content: 'x' }));
      const direct = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: 'y' }));
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('olivia').delete(`/messages/${stream.id}`));
        expectSuccess(await ctx.as('mark').delete(`/messages/${direct.id}`));
      });
      expectKinds(seen, 'delete_message');
      assert.deepEqual(ctx.events.map((d) => d.event.message_type), ['stream', 'private']);
    });

    it('stream create, subscription add and peer_add', async () => {
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'shapes', description: 'Event shapes' }] }));
        expectSuccess(await ctx.as('mona').post('/users/me/subscriptions', { subscriptions: [{ name: 'shapes' }] }));
      });
      expectKinds(seen, 'stream/create', 'subscription/add', 'subscription/peer_add');
    });

    it('subscription remove and peer_remove', async () => {
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('mona').delete('/users/me/subscriptions', { subscriptions: ['shapes'] }));
      });
      expectKinds(seen, 'subscription/remove', 'subscription/peer_remove');
    });

    it('stream delete, for a stream turned private and one archived', async () => {
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('adam').post('/users/me/subscriptions', { subscriptions: [{ name: 'shapes gone' }] }));
        const { stream_id: streamId } = expectSuccess(await ctx.as('adam').get('/get_stream_id', { stream: 'shapes gone' }));
        expectSuccess(await ctx.as('adam').patch(`/streams/${streamId}`, { is_private: true }));
        expectSuccess(await ctx.as('adam').delete(`/streams/${streamId}`));
      });
      expectKinds(seen, 'stream/delete');
      const deletes = ctx.events.filter((d) => kindOf(d.event) === 'stream/delete');
      assert.deepEqual(deletes.map((d) => (d.event.streams as Array<{ name: string }>).map((s) => s.name)), [['shapes gone'], ['shapes gone']]);
    });

    it('realm_user add', async () => {
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('adam').post('/users', { email: 'shape@confab.test', password: 'long enough', full_name: 'Shape Person' }));
      });
      expectKinds(seen, 'realm_user/add');
    });

    it('realm_user update and realm_bot update, on deactivation and reactivation', async () => {
      const { milo, welcomeBot } = ctx.seed.users;
      // Milo takes over the bot, so deactivating him deactivates it too.
      await ctx.services.db.updateTable('user_profile').set({ bot_owner_id: milo.id }).where('id', '=', welcomeBot.id).execute();
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('adam').delete(`/users/${milo.id}`));
        // The bot first: its owner is still away, so it passes to the admin who brings it back.
        expectSuccess(await ctx.as('adam').post(`/users/${welcomeBot.id}/reactivate`));
        expectSuccess(await ctx.as('adam').post(`/users/${milo.id}/reactivate`));
      });
      expectKinds(seen, 'realm_user/update', 'realm_bot/update');
      const updates = ctx.events.filter((d) => d.event.type === 'realm_user').map((d) => d.event.person);
      assert.deepEqual(updates.map((p: any) => Object.keys(p).sort().join()), [
        'is_active,user_id',
        'is_active,user_id',
        'is_active,user_id',
        'bot_owner_id,user_id',
        'is_active,user_id',
      ]);
    });

    it('typing start and stop, direct and stream', async () => {
      const { mona } = ctx.seed.users;
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('mark').post('/typing', { op: 'start', to: [mona.id] }));
        expectSuccess(await ctx.as('mark').post('/typing', { op: 'stop', to: [mona.id] }));
        const stream = { type: 'stream', stream_id: ctx.seed.streams.engineering.id, topic: 'shapes' };
        expectSuccess(await ctx.as('mark').post('/typing', { ...stream, op: 'start' }));
        expectSuccess(await ctx.as('mark').post('/typing', { ...stream, op: 'stop' }));
      });
      expectKinds(seen, 'typing/start', 'typing/stop');
      assert.equal(ctx.events.length, 4);
    });

    it('presence, on a first ping', async () => {
      const seen = await eventsOf(async () => {
        expectSuccess(await ctx.as('milo').post('/users/me/presence', { status: 'idle', ping_only: true }));
      });
      expectKinds(seen, 'presence');
    });

    it('invites_changed, for a link made and revoked', async () => {
      const seen = await eventsOf(async () => {
        const link = expectSuccess(await ctx.as('adam').post('/invites/multiuse')).invite_link;
        const invites = expectSuccess(await ctx.as('adam').get('/invites')).invites as Array<{ id: number; link_url: string }>;
        expectSuccess(await ctx.as('adam').delete(`/invites/multiuse/${invites.find((i) => i.link_url === link)!.id}`));
      });
      expectKinds(seen, 'invites_changed');
      assert.equal(ctx.events.length, 2);
    });

    it('the check itself refuses a malformed event', () => {
      assert.throws(
        () => checkEvent({ type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 1 }, recipients: 'x', id: 0 }),
        /event typing\/start: .*recipients: must be array/,
      );
      assert.throws(() => checkEvent({ type: 'no_such_event', id: 0 }), /the reference documents no such event/);
    });
  });
}
