// The web client's model folds events the way the server's fold test describes: the client's model
// of an earlier /register state, plus the events the server then sent, equals its model of a fresh
// /register, on both stores.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FETCH_TYPES, addMessages, applyEvent, fromRegister, type Model } from '../../web/src/model.js';
import type { Message, ZEvent } from '../../web/src/api.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { fetchStateOf } from '../support/register-state.js';

/** The parts of a model that register state fills (loaded messages come from GET /messages). */
function registered(model: Model) {
  const { messages: _messages, ...rest } = model;
  return rest;
}

for (const dialect of testDialects()) {
  describe(`web client fold [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const modelOf = async () => fromRegister((await fetchStateOf(ctx, 'mark', { wanted: FETCH_TYPES, includeSubscribers: false, slimPresence: true })) as Record<string, unknown>);

    /** The newest messages as Mark's client loads them. */
    const loadMessages = async () =>
      expectSuccess(await ctx.as('mark').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [], apply_markdown: true, client_gravatar: false }))
        .messages as Message[];

    /** What the client keeps of a message (the server's rendering version aside). */
    const shape = (m: Message) => ({
      id: m.id,
      content: m.content,
      subject: m.subject,
      stream_id: m.stream_id,
      flags: [...m.flags].sort(),
      last_edit_timestamp: m.last_edit_timestamp,
      reactions: (m.reactions ?? []).map(({ emoji_name, emoji_code, reaction_type, user_id }) => ({ emoji_name, emoji_code, reaction_type, user_id })),
      edit_history: m.edit_history?.map((e) => { const { prev_rendered_content_version: _v, ...entry } = e as typeof e & { prev_rendered_content_version?: number }; return entry; }),
    });

    /** Loaded messages plus the events an action sent equal the messages loaded afresh (and the register state too). */
    async function verifyMessages(action: () => Promise<void>) {
      const model = await modelOf();
      addMessages(model, await loadMessages());
      const unchanged = [...model.messages.values()].map((m) => structuredClone(shape(m)));
      ctx.clearEvents();
      await action();
      const mark = ctx.seed.users.mark.id;
      for (const [id, d] of ctx.events.filter((e) => e.users.includes(mark)).entries()) applyEvent(model, { ...structuredClone(d.event), id } as ZEvent);
      const fresh = await loadMessages();
      const oldest = Math.min(...model.messages.keys());
      const folded = [...model.messages.values()].sort((a, b) => a.id - b.id).map(shape);
      assert.deepEqual(folded, fresh.filter((m) => m.id >= oldest).map(shape));
      assert.notDeepEqual(folded, unchanged, 'nothing changed');
      assert.deepEqual(registered(model), registered(await modelOf()));
    }

    async function verify(action: () => Promise<void>) {
      const model = await modelOf();
      const unchanged = structuredClone(registered(model));
      ctx.clearEvents();
      await action();
      const mark = ctx.seed.users.mark.id;
      const events = ctx.events.filter((d) => d.users.includes(mark)).map((d, id) => ({ ...structuredClone(d.event), id }) as ZEvent);
      for (const event of events) applyEvent(model, event);
      assert.deepEqual(registered(model), registered(await modelOf()));
      assert.notDeepEqual(registered(model), unchanged, 'nothing changed');
    }

    it('new messages, read and unread, mentions and direct messages (one-on-one, group and to oneself)', async () => {
      const general = ctx.seed.streams.general.id;
      let ids: number[] = [];
      await verify(async () => {
        const a = expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: general, topic: 'fold', content: 'hi @**Mark Member**' })).id;
        const b = expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [ctx.seed.users.mark.id], content: 'psst' })).id;
        const c = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: general, topic: 'fold', content: 'mine' })).id;
        ids = [a, b, c];
      });
      // Direct messages in a group and to oneself (sent through the API, so unread for their sender
      // too): their conversations, unread and recent, and marked read and unread again.
      let dms: number[] = [];
      await verify(async () => {
        const { mark, milo, mona } = ctx.seed.users;
        const group = expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [mark.id, milo.id], content: 'all three' })).id;
        const mine = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mark.id], content: 'note to self' })).id;
        const toMona = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: 'hello Mona' })).id;
        dms = [group, mine, toMona];
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').post('/messages/flags', { messages: dms, op: 'add', flag: 'read' }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').post('/messages/flags', { messages: dms, op: 'remove', flag: 'read' }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').post('/messages/flags', { messages: [ids[0]], op: 'add', flag: 'read' }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').post('/messages/flags', { messages: [ids[0], ids[1]], op: 'remove', flag: 'read' }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mona').patch(`/messages/${ids[0]}`, { topic: 'folded', propagate_mode: 'change_all' }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').post('/mark_all_as_read'));
      });
    });

    it('reactions, edits, moves, stars and deletions fold into the loaded messages', async () => {
      const { general, engineering } = ctx.seed.streams;
      const send = async (who: 'mark' | 'mona', topic: string, content: string) =>
        expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to: general.id, topic, content })).id as number;
      const monas = await send('mona', 'act', 'first');
      const marks = await send('mark', 'act', 'second');
      const later = await send('mona', 'act', 'third');
      const thumbs = { emoji_name: 'thumbs_up' };
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mona').post(`/messages/${marks}/reactions`, thumbs));
        expectSuccess(await ctx.as('mark').post(`/messages/${marks}/reactions`, thumbs));
        expectSuccess(await ctx.as('mark').post(`/messages/${monas}/reactions`, { emoji_name: 'tada' }));
      });
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mona').delete(`/messages/${marks}/reactions`, thumbs));
      });
      // Mona's edit mentions Mark: his flags and unread mention change with it.
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mona').patch(`/messages/${monas}`, { content: 'first, @**Mark Member**' }));
      });
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${marks}`, { content: 'second, edited', topic: 'acted', propagate_mode: 'change_one' }));
      });
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${monas}`, { topic: '✔ act', propagate_mode: 'change_all' }));
      });
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${monas}`, { stream_id: engineering.id, propagate_mode: 'change_later' }));
      });
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mark').post('/messages/flags', { messages: [later], op: 'add', flag: 'starred' }));
      });
      await verifyMessages(async () => {
        expectSuccess(await ctx.as('mark').delete(`/messages/${marks}`));
      });
    });

    it('the realm rules for editing and my role', async () => {
      await verify(async () => {
        expectSuccess(await ctx.as('olivia').patch('/realm', { allow_message_editing: false, edit_topic_policy: 2, message_content_delete_limit_seconds: 60 }, { undocumented: true }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('olivia').patch(`/users/${ctx.seed.users.mark.id}`, { role: 300 }));
      });
    });

    it('subscriptions, people, the realm name and the colour scheme', async () => {
      await verify(async () => {
        expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').delete('/users/me/subscriptions', { subscriptions: ['design'] }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mona').patch('/settings', { full_name: 'Mona Renamed' }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').patch('/settings', { color_scheme: 2 }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('olivia').patch('/realm', { name: 'Renamed Dev' }, { undocumented: true }));
      });
    });

    it("people's presence and status", async () => {
      await verify(async () => {
        expectSuccess(await ctx.as('mona').post('/users/me/presence', { status: 'idle' }));
      });
      await verify(async () => {
        ctx.clock.advance(3600);
        expectSuccess(await ctx.as('mona').post('/users/me/presence', { status: 'active' }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mona').post('/users/me/status', { status_text: 'Lunch', emoji_name: 'taco', away: true }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mona').post('/users/me/status', { status_text: '', emoji_name: '', away: false }));
      });
    });

    it('drafts and the enter_sends setting', async () => {
      const general = ctx.seed.streams.general.id;
      let id = 0;
      await verify(async () => {
        id = expectSuccess(await ctx.as('mark').post('/drafts', { drafts: [{ type: 'stream', to: [general], topic: 'fold', content: 'half', timestamp: 1 }] })).ids[0];
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').patch(`/drafts/${id}`, { draft: { type: 'private', to: [ctx.seed.users.mona.id], topic: '', content: 'whole', timestamp: 2 } }));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').delete(`/drafts/${id}`));
      });
      await verify(async () => {
        expectSuccess(await ctx.as('mark').patch('/settings', { enter_sends: true }));
      });
    });
  });
}
