// Permission matrix, POST /register and event delivery: what each actor's initial state names
// (streams, subscriber lists, unread messages, users), and which events about a conversation
// reach each actor's queue through GET /events. Following the reference: administrators see
// every stream in `streams` (include_all_active for them) but not private messages; guests see
// their streams and web-public ones; unread counts leave out streams one has left (Maya left
// vault and bunker with their messages unread); events about a message go to those who hold it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { testDialects } from '../support/dialects.js';
import { ACTORS, type Actor, buildMatrix, checkTable, type HostClient, type Matrix, type MessageKey, parseRow, type StreamKey } from './matrix-fixture.js';

// `streams`: Y listed.
const STATE_STREAMS: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' Y      Y    -    Y    Y    Y    -   - ',
  bunker:   ' Y      Y    -    Y    Y    Y    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// The stream's name anywhere in the state (Maya's in `unsubscribed`, as a former subscriber).
const STATE_NAMES: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' Y      Y    Y    Y    Y    Y    -   - ',
  bunker:   ' Y      Y    Y    Y    Y    Y    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// A non-empty subscriber list for the stream in subscriptions, unsubscribed or never_subscribed
// (never with Dora, deactivated, in it).
const STATE_SUBSCRIBERS: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' Y      Y    -    Y    Y    Y    -   - ',
  bunker:   ' Y      Y    -    Y    Y    Y    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// The message among `unread_msgs` (sent through the API, one's own messages stay unread too).
const STATE_UNREAD: Record<MessageKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' -      -    -    Y    -    -    Y   - ',
  vault:    ' -      -    -    Y    Y    -    -   - ',
  bunker:   ' -      -    -    Y    Y    -    -   - ',
  showcase: ' Y      -    -    -    -    -    -   - ',
  dm:       ' -      -    -    Y    Y    -    -   - ',
  group:    ' -      -    -    Y    Y    -    Y   - ',
};

type Live = 'general' | 'vault' | 'bunker' | 'dm' | 'vaultReaction' | 'vaultEdit' | 'vaultPeerAdd';

// Events in each queue after the registration: a message event per new message, the reaction
// and the content edit on the new vault message, and the peer_add when Adam joins vault (to its
// subscribers and the administrators; Adam himself gets his own `add`).
const EVENTS: Record<Live, string> = {
  //               olivia adam maya mark mona milo gus bot
  general:       ' Y      Y    Y    Y    Y    Y    -   Y ',
  vault:         ' -      -    -    Y    Y    Y    -   - ',
  bunker:        ' -      -    -    Y    Y    Y    -   - ',
  dm:            ' -      -    -    Y    Y    -    -   - ',
  vaultReaction: ' -      -    -    Y    Y    Y    -   - ',
  vaultEdit:     ' -      -    -    Y    Y    Y    -   - ',
  vaultPeerAdd:  ' Y      -    -    Y    Y    Y    -   - ',
};

// GET /events on Mark's queue: only Mark. E: BAD_EVENT_QUEUE_ID for that queue.
const MARKS_QUEUE: Record<'marks', string> = {
  //          olivia adam maya mark mona milo gus bot
  marks:    ' E      E    E    Y    E    E    E   E ',
};

const register = async (client: HostClient) =>
  expectSuccess(await client.post('/register', { include_subscribers: true, apply_markdown: true }));

/** Every message id in an unread_msgs object. */
function unreadIds(unread: Record<string, any>): number[] {
  const buckets = [...unread.pms, ...unread.streams, ...unread.huddles];
  return [...buckets.flatMap((b: { unread_message_ids: number[] }) => b.unread_message_ids), ...unread.mentions];
}

/** The subscriber lists the three subscription lists give for the stream, empty ones left out. */
function subscriberLists(state: Record<string, any>, streamId: number): number[][] {
  const lists = [state.subscriptions, state.unsubscribed, state.never_subscribed];
  return lists
    .flat()
    .filter((s: { stream_id: number; subscribers?: number[] }) => s.stream_id === streamId && (s.subscribers ?? []).length > 0)
    .map((s: { subscribers: number[] }) => s.subscribers);
}

for (const dialect of testDialects()) {
  describe(`permission matrix: POST /register and events [${dialect}]`, () => {
    let m: Matrix;
    const states = new Map<Actor, Record<string, any>>();
    before(async () => {
      m = await buildMatrix(dialect);
      for (const actor of ACTORS) states.set(actor, await register(m.as(actor)));
    });
    after(() => m.ctx.close());

    const fromState = (check: (state: Record<string, any>, key: any, actor: Actor) => boolean) => async (_c: HostClient, _k: string, actor: Actor) =>
      ({ status: 200, headers: {}, body: { state: states.get(actor)!, check } }) as any;
    const named = (state: Record<string, any>, name: string) => JSON.stringify(state).includes(`"name":"${name}"`);

    it('streams', async () => {
      await checkTable(m, STATE_STREAMS, fromState(() => true), (body, key, actor) =>
        states.get(actor)!.streams.some((s: { stream_id: number }) => s.stream_id === m.stream[key as StreamKey]),
      );
    });

    it('stream names anywhere in the state', async () => {
      await checkTable(m, STATE_NAMES, fromState(() => true), (_body, key, actor) => named(states.get(actor)!, key));
    });

    it('subscriber lists', async () => {
      await checkTable(m, STATE_SUBSCRIBERS, fromState(() => true), (_body, key, actor) => {
        const lists = subscriberLists(states.get(actor)!, m.stream[key]);
        // Active subscribers only: Dora, deactivated, is in none.
        for (const list of lists) assert.ok(!list.includes(m.dora.id), `${key} lists Dora for ${actor}`);
        return lists.length > 0;
      });
    });

    it('unread messages', async () => {
      await checkTable(m, STATE_UNREAD, fromState(() => true), (_body, key, actor) => unreadIds(states.get(actor)!.unread_msgs).includes(m.message[key]));
    });

    it('users: the whole organization, Dora as inactive, nobody from elsewhere', async () => {
      for (const actor of ACTORS) {
        const state = states.get(actor)!;
        const active = state.realm_users.map((u: { user_id: number }) => u.user_id);
        const inactive = state.realm_non_active_users.map((u: { user_id: number }) => u.user_id);
        assert.ok(active.includes(m.user('gus').id) && active.includes(m.user('olivia').id), actor);
        assert.deepEqual(inactive, [m.dora.id], actor);
        assert.ok(!active.includes(m.owen.id) && !inactive.includes(m.owen.id), actor);
      }
    });

    it("GET /events on another user's queue", async () => {
      const queueId = states.get('mark')!.queue_id as string;
      const bad = { status: 400, code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${queueId}` };
      await checkTable(m, MARKS_QUEUE, (c) => c.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true }), () => true, bad);
      const res = await m.owenHome.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
      assert.deepEqual({ status: res.status, code: res.body.code, queue_id: res.body.queue_id }, { status: 400, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
    });

    it("another organization's user registers with none of this", async () => {
      const state = await register(m.owenHome);
      for (const key of ['general', 'lobby', 'vault', 'bunker', 'showcase'] as const) {
        assert.equal(named(state, key), false, key);
      }
      assert.deepEqual(unreadIds(state.unread_msgs), []);
      const ours = new Set([...ACTORS.map((actor) => m.user(actor).id), m.dora.id]);
      const listed = [...state.realm_users, ...state.realm_non_active_users].map((u: { user_id: number }) => u.user_id);
      assert.ok(listed.includes(m.owen.id));
      assert.deepEqual(listed.filter((id: number) => ours.has(id)), []);
    });

    it('GET /events: messages, reactions and edits reach those who hold the message; peer_add, those who may see the subscribers', async () => {
      const owenState = await register(m.owenHome);
      const send = async (actor: Actor, params: Record<string, unknown>) => expectSuccess(await m.as(actor).post('/messages', params)).id as number;
      const live: Record<'general' | 'vault' | 'bunker' | 'dm', number> = {
        general: await send('mark', { type: 'stream', to: m.stream.general, topic: 'live', content: 'now' }),
        vault: await send('mark', { type: 'stream', to: m.stream.vault, topic: 'live', content: 'now' }),
        bunker: await send('mark', { type: 'stream', to: m.stream.bunker, topic: 'live', content: 'now' }),
        dm: await send('mark', { type: 'direct', to: [m.user('mona').id], content: 'now' }),
      };
      expectSuccess(await m.as('mona').post(`/messages/${live.vault}/reactions`, { emoji_name: 'octopus' }));
      expectSuccess(await m.as('mark').call('PATCH', `/messages/${live.vault}`, { content: 'edited' }));
      expectSuccess(await m.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [m.user('adam').id] }));

      const received = new Map<Actor, Record<string, any>[]>();
      for (const actor of ACTORS) {
        const state = states.get(actor)!;
        const res = await m.as(actor).get('/events', { queue_id: state.queue_id, last_event_id: state.last_event_id, dont_block: true });
        received.set(actor, expectSuccess(res).events);
      }
      const matches: Record<Live, (e: Record<string, any>) => boolean> = {
        general: (e) => e.type === 'message' && e.message.id === live.general,
        vault: (e) => e.type === 'message' && e.message.id === live.vault,
        bunker: (e) => e.type === 'message' && e.message.id === live.bunker,
        dm: (e) => e.type === 'message' && e.message.id === live.dm,
        vaultReaction: (e) => e.type === 'reaction' && e.message_id === live.vault,
        vaultEdit: (e) => e.type === 'update_message' && e.message_id === live.vault,
        vaultPeerAdd: (e) => e.type === 'subscription' && e.op === 'peer_add' && e.stream_ids.includes(m.stream.vault),
      };
      for (const key of Object.keys(EVENTS) as Live[]) {
        const row = parseRow(EVENTS[key]);
        for (const actor of ACTORS) {
          assert.equal(received.get(actor)!.some(matches[key]), row[actor] === 'Y', `${key} event for ${actor}`);
        }
      }
      const owenEvents = expectSuccess(
        await m.owenHome.get('/events', { queue_id: owenState.queue_id, last_event_id: owenState.last_event_id, dont_block: true }),
      ).events as Record<string, any>[];
      assert.equal(owenEvents.filter((e) => Object.values(matches).some((match) => match(e))).length, 0);
    });
  });
}
