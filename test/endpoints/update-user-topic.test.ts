import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /user_topics [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const setPolicy = (who: DevUserName, stream_id: number, topic: string, visibility_policy: unknown) =>
      ctx.as(who).post('/user_topics', { stream_id, topic, visibility_policy });
    const rows = (userId: number) =>
      ctx.services.db.selectFrom('user_topic').select(['stream_id', 'topic_name', 'visibility_policy']).where('user_id', '=', userId).orderBy('id').execute();

    it('mutes a topic without messages and announces it, legacy list first', async () => {
      const { mark } = ctx.seed.users;
      const general = ctx.seed.streams.general;
      ctx.clearEvents();
      expectSuccess(await setPolicy('mark', general.id, 'Quiet Place', 1));
      const now = Math.floor(ctx.clock.now());
      assert.deepEqual(ctx.events, [
        { event: { type: 'muted_topics', muted_topics: [['general', 'Quiet Place', now]] }, users: [mark.id] },
        {
          event: { type: 'user_topic', stream_id: general.id, topic_name: 'Quiet Place', last_updated: now, visibility_policy: 1 },
          users: [mark.id],
        },
      ]);
      assert.deepEqual(await rows(mark.id), [{ stream_id: general.id, topic_name: 'Quiet Place', visibility_policy: 1 }]);
    });

    it('matches topics case-insensitively and keeps the first spelling; repeating a policy changes nothing', async () => {
      const { mark } = ctx.seed.users;
      const general = ctx.seed.streams.general;
      ctx.clearEvents();
      expectSuccess(await setPolicy('mark', general.id, 'QUIET PLACE', 1));
      assert.equal(ctx.events.length, 0);
      ctx.clock.advance(10);
      expectSuccess(await setPolicy('mark', general.id, 'quiet place', 3));
      assert.deepEqual(await rows(mark.id), [{ stream_id: general.id, topic_name: 'Quiet Place', visibility_policy: 3 }]);
      assert.deepEqual(ctx.events.map((d) => d.event), [
        { type: 'muted_topics', muted_topics: [] },
        { type: 'user_topic', stream_id: general.id, topic_name: 'Quiet Place', last_updated: Math.floor(ctx.clock.now()), visibility_policy: 3 },
      ]);
    });

    it('removes a policy with 0, and 0 for a topic without one changes nothing', async () => {
      const { mark } = ctx.seed.users;
      const general = ctx.seed.streams.general;
      ctx.clearEvents();
      expectSuccess(await setPolicy('mark', general.id, 'quiet PLACE', 0));
      assert.deepEqual(await rows(mark.id), []);
      assert.deepEqual(ctx.events.map((d) => d.event.type), ['muted_topics', 'user_topic']);
      assert.equal(ctx.events[1]!.event.visibility_policy, 0);
      assert.equal(ctx.events[1]!.event.topic_name, 'Quiet Place');
      ctx.clearEvents();
      expectSuccess(await setPolicy('mark', general.id, 'never set', 0));
      assert.deepEqual(ctx.events, []);
    });

    it('accepts unmuted (2) and followed (3)', async () => {
      const { mona } = ctx.seed.users;
      const design = ctx.seed.streams.design;
      expectSuccess(await setPolicy('mona', design.id, 'a', 2));
      expectSuccess(await setPolicy('mona', design.id, 'b', 3));
      assert.deepEqual((await rows(mona.id)).map((r) => r.visibility_policy), [2, 3]);
    });

    it('refuses bad policies, long topics and streams out of reach', async () => {
      const { general, leadership } = ctx.seed.streams;
      expectError(await setPolicy('mark', general.id, 't', 4), 'Invalid visibility_policy');
      expectError(await setPolicy('mark', general.id, 't', -1), 'Invalid visibility_policy');
      expectError(await setPolicy('mark', general.id, 't', 'muted'), 'visibility_policy is not valid JSON');
      expectError(await setPolicy('mark', general.id, 'x'.repeat(61), 1), 'topic is too long (limit: 60 characters)');
      expectError(await setPolicy('mark', general.id, 'a\u0000b', 1), 'Invalid character in topic, at position 2!');
      expectError(await setPolicy('mark', 99999, 't', 1), 'Invalid channel ID');
      expectError(await setPolicy('mark', 99999, 't', 0), 'Invalid channel ID');
      expectError(await setPolicy('mark', leadership.id, 't', 1), 'Invalid channel ID');
      // Removing a policy needs only that the stream exists.
      expectSuccess(await setPolicy('mark', leadership.id, 't', 0));
      expectError(await ctx.as('mark').post('/user_topics', { stream_id: general.id, topic: 't' }), "Missing 'visibility_policy' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('shapes the in:home, is:muted and is:followed narrows', async () => {
      const { general, engineering } = ctx.seed.streams;
      const send = async (stream: string, topic: string) =>
        expectSuccess(await ctx.as('olivia').post('/messages', { type: 'stream', to: stream, topic, content: `in ${topic}` })).id as number;
      const loud = await send('general', 'loud');
      const hushed = await send('general', 'Hushed');
      const tracked = await send('engineering', 'tracked');
      const engineeringOther = await send('engineering', 'other');
      expectSuccess(await setPolicy('mark', general.id, 'hushed', 1));
      expectSuccess(await setPolicy('mark', engineering.id, 'TRACKED', 3));
      const ids = async (operator: string, operand: string) => {
        const body = expectSuccess(
          await ctx.as('mark').get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator, operand }] }),
        );
        return new Set((body.messages as Array<{ id: number }>).map((m) => m.id));
      };
      const home = await ids('in', 'home');
      assert.deepEqual([home.has(loud), home.has(hushed), home.has(tracked), home.has(engineeringOther)], [true, false, true, true]);
      const muted = await ids('is', 'muted');
      assert.deepEqual([muted.has(loud), muted.has(hushed), muted.has(tracked)], [false, true, false]);
      assert.deepEqual([...(await ids('is', 'followed'))], [tracked]);
      // A muted stream leaves in:home, except for its followed topics.
      expectSuccess(
        await ctx.as('mark').post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: engineering.id, property: 'is_muted', value: true }],
        }),
      );
      const homeAfter = await ids('in', 'home');
      assert.deepEqual([homeAfter.has(tracked), homeAfter.has(engineeringOther), homeAfter.has(loud)], [true, false, true]);
    });
  });
}
