import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { resetBulkLimits, setBulkLimits } from '../../src/actions/batched-work.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { eventsOfType, unreadIdsOf } from '../support/flags.js';

for (const dialect of testDialects()) {
  describe(`POST /mark_all_as_read [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    afterEach(() => resetBulkLimits());

    /** Messages Mona has not read: stream messages, a direct message and a group message. */
    async function unreadForMona(count: number): Promise<number[]> {
      const { mona, milo } = ctx.seed.users;
      const ids: number[] = [];
      for (let i = 0; i < count; i++) {
        const params =
          i % 3 === 0
            ? { type: 'stream', to: 'general', topic: `t${i % 2}`, content: `m${i}` }
            : i % 3 === 1
              ? { type: 'direct', to: [mona.id], content: `d${i}` }
              : { type: 'direct', to: [mona.id, milo.id], content: `g${i}` };
        ids.push(expectSuccess(await ctx.as('mark').post('/messages', params)).id);
      }
      return ids;
    }
    const unreadIds = () => unreadIdsOf(ctx, 'mona');
    const flagEvents = () => eventsOfType(ctx, 'update_message_flags');

    it('marks every unread message read in one call and sends the all form of the event', async () => {
      await unreadForMona(6);
      assert.ok((await unreadIds()).length >= 6);
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mona').post('/mark_all_as_read'));
      assert.deepEqual(body, { result: 'success', msg: '', complete: true });
      assert.deepEqual(await unreadIds(), []);
      assert.deepEqual(flagEvents(), [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true }]);
      assert.deepEqual(ctx.events.map((d) => d.users), [[ctx.seed.users.mona.id]]);
    });

    it('leaves other users and other flags alone', async () => {
      const ids = await unreadForMona(3);
      expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [ids[0]], op: 'add', flag: 'starred' }));
      const miloBefore = await ctx.services.db.selectFrom('user_message').select(['message_id', 'flags']).where('user_id', '=', ctx.seed.users.milo.id).orderBy('message_id').execute();
      expectSuccess(await ctx.as('mona').post('/mark_all_as_read'));
      const miloAfter = await ctx.services.db.selectFrom('user_message').select(['message_id', 'flags']).where('user_id', '=', ctx.seed.users.milo.id).orderBy('message_id').execute();
      assert.deepEqual(miloAfter, miloBefore);
      const starred = await ctx.services.db.selectFrom('user_message').select('flags').where('user_id', '=', ctx.seed.users.mona.id).where('message_id', '=', ids[0]!).executeTakeFirstOrThrow();
      assert.equal(starred.flags & (FLAG_BITS.read | FLAG_BITS.starred), FLAG_BITS.read | FLAG_BITS.starred);
    });

    it('with nothing unread, completes and still sends the all form', async () => {
      ctx.clearEvents();
      assert.equal(expectSuccess(await ctx.as('mona').post('/mark_all_as_read')).complete, true);
      assert.deepEqual(flagEvents().map((e) => [e.all, e.messages]), [[true, []]]);
    });

    it('works newest first, one batch per call once the budget is spent, until complete', async () => {
      const ids = await unreadForMona(5);
      // A pinned clock and no budget: each call runs exactly its first batch.
      setBulkLimits({ readBatchSize: 2, timeBudgetSeconds: 0 });
      ctx.clearEvents();
      const first = expectSuccess(await ctx.as('mona').post('/mark_all_as_read'));
      assert.equal(first.complete, false);
      assert.deepEqual(await unreadIds(), ids.slice(0, 3));
      const second = expectSuccess(await ctx.as('mona').post('/mark_all_as_read'));
      assert.equal(second.complete, false);
      assert.deepEqual(await unreadIds(), ids.slice(0, 1));
      const third = expectSuccess(await ctx.as('mona').post('/mark_all_as_read'));
      assert.equal(third.complete, true);
      assert.deepEqual(await unreadIds(), []);
      assert.deepEqual(flagEvents().map((e) => [e.all, e.messages]), [
        [false, ids.slice(3, 5)],
        [false, ids.slice(1, 3)],
        [true, []],
      ]);
    });

    it('runs several batches in one call while the budget lasts', async () => {
      const ids = await unreadForMona(5);
      setBulkLimits({ readBatchSize: 2, timeBudgetSeconds: 10 });
      const batches: number[] = [];
      setBulkLimits({ onBatch: (ms) => batches.push(ms) });
      ctx.clearEvents();
      assert.equal(expectSuccess(await ctx.as('mona').post('/mark_all_as_read')).complete, true);
      assert.equal(batches.length, 3);
      assert.deepEqual(flagEvents().map((e) => [e.all, e.messages]), [
        [false, ids.slice(3, 5)],
        [false, ids.slice(1, 3)],
        [true, []],
      ]);
    });

    it('stops when the clock passes the budget between batches', async () => {
      await unreadForMona(5);
      setBulkLimits({ readBatchSize: 2, timeBudgetSeconds: 10 });
      // Each batch takes (by this clock) 6 seconds: the second runs, the third does not.
      setBulkLimits({ onBatch: () => ctx.clock.advance(6) });
      assert.equal(expectSuccess(await ctx.as('mona').post('/mark_all_as_read')).complete, false);
      assert.equal((await unreadIds()).length, 1);
      assert.equal(expectSuccess(await ctx.as('mona').post('/mark_all_as_read')).complete, true);
      assert.deepEqual(await unreadIds(), []);
    });

    it('reports unsupported parameters', async () => {
      const body = expectSuccess(await ctx.as('mona').post('/mark_all_as_read', { stream_id: 1 }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['stream_id']);
    });
  });
}
