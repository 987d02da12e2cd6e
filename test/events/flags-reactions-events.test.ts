// Events of bulk read marking, flags over a narrow, topic deletion and reactions: their shapes
// match the reference, and an earlier POST /register state plus them equals a fresh fetch.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { resetBulkLimits, setBulkLimits } from '../../src/actions/batched-work.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { verifyFolding } from '../support/register-state.js';


for (const dialect of testDialects()) {
  describe(`flag, deletion and reaction events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    afterEach(() => resetBulkLimits());

    /** Runs the action, checks the shape of every event it sent, and folds them into each watcher's earlier state. */
    const verify = (watchers: DevUserName[], action: () => Promise<void>, changing: DevUserName[] = watchers) =>
      verifyFolding(ctx, { watchers, action, changing });

    const send = async (params: Record<string, unknown>, from: DevUserName = 'mark') =>
      expectSuccess(await ctx.as(from).post('/messages', params)).id as number;
    /** Unread messages for Mona: stream, one-on-one and group, one of them mentioning her. */
    async function unreadForMona(): Promise<number[]> {
      const { mona, milo } = ctx.seed.users;
      return [
        await send({ type: 'stream', to: 'general', topic: 'news', content: 'hello' }),
        await send({ type: 'stream', to: 'general', topic: 'news', content: 'hi @**Mona**' }),
        await send({ type: 'direct', to: [mona.id], content: 'direct' }),
        await send({ type: 'direct', to: [mona.id, milo.id], content: 'group' }),
      ];
    }

    it('mark_all_as_read in one call: the all form', async () => {
      await unreadForMona();
      const kinds = await verify(['mona'], async () => {
        expectSuccess(await ctx.as('mona').post('/mark_all_as_read'));
      });
      assert.deepEqual(kinds, ['update_message_flags/add']);
    });

    it('mark_all_as_read over several calls: batches by id, then the all form', async () => {
      await unreadForMona();
      await unreadForMona();
      setBulkLimits({ readBatchSize: 3, timeBudgetSeconds: 0 });
      await verify(['mona'], async () => {
        assert.equal(expectSuccess(await ctx.as('mona').post('/mark_all_as_read')).complete, false);
      });
      await verify(['mona'], async () => {
        assert.equal(expectSuccess(await ctx.as('mona').post('/mark_all_as_read')).complete, false);
        assert.equal(expectSuccess(await ctx.as('mona').post('/mark_all_as_read')).complete, true);
      });
    });

    it('mark_stream_as_read and mark_topic_as_read', async () => {
      await unreadForMona();
      await send({ type: 'stream', to: 'general', topic: 'other', content: 'more' });
      await verify(['mona'], async () => {
        expectSuccess(await ctx.as('mona').post('/mark_topic_as_read', { stream_id: ctx.seed.streams.general.id, topic_name: 'news' }));
      });
      await verify(['mona'], async () => {
        expectSuccess(await ctx.as('mona').post('/mark_stream_as_read', { stream_id: ctx.seed.streams.general.id }));
      });
    });

    it('flags over a narrow: read added and removed (with message details), starred', async () => {
      await unreadForMona();
      await verify(['mona'], async () => {
        expectSuccess(await ctx.as('mona').post('/messages/flags/narrow', { anchor: 'newest', num_before: 20, num_after: 0, narrow: [], op: 'add', flag: 'read' }));
      });
      const kinds = await verify(['mona'], async () => {
        const params = { anchor: 'newest', num_before: 3, num_after: 0, narrow: [], op: 'remove', flag: 'read' };
        expectSuccess(await ctx.as('mona').post('/messages/flags/narrow', params));
      });
      assert.deepEqual(kinds, ['update_message_flags/remove']);
      await verify(['mona'], async () => {
        const params = { anchor: 'newest', num_before: 2, num_after: 0, narrow: [['is', 'dm']], op: 'add', flag: 'starred' };
        expectSuccess(await ctx.as('mona').post('/messages/flags/narrow', params));
      });
    });

    it('delete_topic: delete_message events per batch', async () => {
      await send({ type: 'stream', to: 'general', topic: 'doomed', content: 'one' });
      await send({ type: 'stream', to: 'general', topic: 'doomed', content: 'two @**Mona**' });
      // A newer message elsewhere keeps max_message_id where it is.
      await send({ type: 'stream', to: 'general', topic: 'after', content: 'later' });
      setBulkLimits({ deleteBatchSize: 1 });
      const kinds = await verify(['mona', 'mark'], async () => {
        expectSuccess(await ctx.as('olivia').post(`/streams/${ctx.seed.streams.general.id}/delete_topic`, { topic_name: 'doomed' }));
      }, ['mona']);
      assert.deepEqual(kinds, ['delete_message', 'delete_message']);
    });

    it('reactions: add and remove, which leave the registered state as it was', async () => {
      const id = await send({ type: 'stream', to: 'general', topic: 'react', content: 'x' });
      const kinds = await verify(['mona', 'mark'], async () => {
        expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
        expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'zulip' }));
        expectSuccess(await ctx.as('mona').delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
      }, []);
      assert.deepEqual(kinds, ['reaction/add', 'reaction/add', 'reaction/remove']);
    });
  });
}
