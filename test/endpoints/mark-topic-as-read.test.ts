import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { eventsOfType, unreadIdsOf } from '../support/flags.js';

for (const dialect of testDialects()) {
  describe(`POST /mark_topic_as_read [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (to: string, topic: string) =>
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to, topic, content: 'x' })).id as number;
    const unreadOf = (user: DevUserName) => unreadIdsOf(ctx, user);
    const flagEvents = () => eventsOfType(ctx, 'update_message_flags');

    it('marks the unread messages of one topic read, matching the topic case-insensitively', async () => {
      const lunch = [await send('general', 'Lunch'), await send('general', 'lunch')];
      const other = await send('general', 'dinner');
      const sameTopicElsewhere = await send('engineering', 'lunch');
      ctx.clearEvents();
      const body = expectSuccess(
        await ctx.as('milo').post('/mark_topic_as_read', { stream_id: ctx.seed.streams.general.id, topic_name: 'LUNCH' }),
      );
      assert.deepEqual(body, { result: 'success', msg: '' });
      const unread = await unreadOf('milo');
      assert.ok(!unread.includes(lunch[0]!) && !unread.includes(lunch[1]!));
      assert.ok(unread.includes(other) && unread.includes(sameTopicElsewhere));
      assert.deepEqual(flagEvents(), [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: lunch, all: false }]);
    });

    it('refuses a topic the user has no messages in', async () => {
      const general = ctx.seed.streams.general.id;
      expectError(await ctx.as('milo').post('/mark_topic_as_read', { stream_id: general, topic_name: 'abc' }), "No such topic 'abc'");
      // Engineering's "lunch" topic is not in general.
      const design = ctx.seed.streams.design.id;
      expectError(await ctx.as('milo').post('/mark_topic_as_read', { stream_id: design, topic_name: 'lunch' }), "No such topic 'lunch'");
      expectError(await ctx.as('milo').post('/mark_topic_as_read', { stream_id: general, topic_name: 'a\u0000b' }), "No such topic 'a\u0000b'");
    });

    it('a topic whose messages are all read already succeeds without an event', async () => {
      ctx.clearEvents();
      expectSuccess(await ctx.as('milo').post('/mark_topic_as_read', { stream_id: ctx.seed.streams.general.id, topic_name: 'lunch' }));
      assert.deepEqual(flagEvents(), []);
    });

    it('refuses unknown and inaccessible streams and missing parameters', async () => {
      const mona = ctx.as('mona');
      expectError(await mona.post('/mark_topic_as_read', { stream_id: 99999, topic_name: 'x' }), 'Invalid channel ID');
      expectError(await mona.post('/mark_topic_as_read', { stream_id: ctx.seed.streams.leadership.id, topic_name: 'x' }), 'Invalid channel ID');
      expectError(await mona.post('/mark_topic_as_read', { stream_id: ctx.seed.streams.general.id }), "Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await mona.post('/mark_topic_as_read', { topic_name: 'x' }), "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
