import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { resetBulkLimits, setBulkLimits } from '../../src/actions/batched-work.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { eventsOfType, unreadIdsOf } from '../support/flags.js';

for (const dialect of testDialects()) {
  describe(`POST /mark_stream_as_read [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    afterEach(() => resetBulkLimits());

    const send = async (to: string, topic: string) =>
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to, topic, content: 'x' })).id as number;
    const unreadOf = (user: DevUserName) => unreadIdsOf(ctx, user);
    const flagEvents = () => eventsOfType(ctx, 'update_message_flags');

    it('marks the unread messages of one stream read, in batches, newest first', async () => {
      const inGeneral = [await send('general', 'a'), await send('general', 'b'), await send('general', 'a')];
      const elsewhere = await send('engineering', 'a');
      const direct = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [ctx.seed.users.milo.id], content: 'dm' })).id;
      setBulkLimits({ readBatchSize: 2, timeBudgetSeconds: 0 });
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('milo').post('/mark_stream_as_read', { stream_id: ctx.seed.streams.general.id }));
      assert.deepEqual(body, { result: 'success', msg: '' });
      const unread = await unreadOf('milo');
      for (const id of inGeneral) assert.ok(!unread.includes(id));
      assert.ok(unread.includes(elsewhere) && unread.includes(direct));
      assert.deepEqual(flagEvents(), [
        { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: inGeneral.slice(1), all: false },
        { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: inGeneral.slice(0, 1), all: false },
      ]);
    });

    it('with nothing unread, succeeds without an event', async () => {
      ctx.clearEvents();
      expectSuccess(await ctx.as('milo').post('/mark_stream_as_read', { stream_id: ctx.seed.streams.general.id }));
      assert.deepEqual(flagEvents(), []);
    });

    it('refuses unknown and inaccessible streams and bad parameters', async () => {
      const mona = ctx.as('mona');
      expectError(await mona.post('/mark_stream_as_read', { stream_id: 99999 }), 'Invalid channel ID');
      expectError(await mona.post('/mark_stream_as_read', { stream_id: ctx.seed.streams.leadership.id }), 'Invalid channel ID');
      // Administrators see private streams but do not act on the content of those they left.
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'quiet-room' }], invite_only: true }));
      expectError(await ctx.as('adam').post('/mark_stream_as_read', { stream_id: await streamId('quiet-room') }), 'Invalid channel ID');
      expectError(await ctx.as('gus').post('/mark_stream_as_read', { stream_id: ctx.seed.streams.general.id }), 'Invalid channel ID');
      expectError(await mona.post('/mark_stream_as_read', {}), "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await mona.post('/mark_stream_as_read', { stream_id: 'general' }), 'stream_id is not valid JSON');
    });

    const streamId = async (name: string) =>
      (await ctx.services.db.selectFrom('stream').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  });
}
