// The web client's model folds events the way the server's fold test describes: the client's model
// of an earlier /register state, plus the events the server then sent, equals its model of a fresh
// /register, on both stores.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EVENT_TYPES, applyEvent, fromRegister, type Model } from '../../web/src/model.js';
import type { ZEvent } from '../../web/src/api.js';
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

    const modelOf = async () => fromRegister((await fetchStateOf(ctx, 'mark', { wanted: EVENT_TYPES, includeSubscribers: false, slimPresence: true })) as Record<string, unknown>);

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

    it('new messages, read and unread, mentions and direct messages', async () => {
      const general = ctx.seed.streams.general.id;
      let ids: number[] = [];
      await verify(async () => {
        const a = expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: general, topic: 'fold', content: 'hi @**Mark Member**' })).id;
        const b = expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [ctx.seed.users.mark.id], content: 'psst' })).id;
        const c = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: general, topic: 'fold', content: 'mine' })).id;
        ids = [a, b, c];
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
