import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { queueSpec } from '../support/queue-spec.js';

for (const dialect of testDialects()) {
  describe(`DELETE /events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('deletes the caller\'s queue, after which it is unknown', async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
      assert.deepEqual(expectSuccess(await ctx.as('mona').delete('/events', { queue_id: queue.id })), { result: 'success', msg: '' });
      assert.equal(ctx.services.queues.get(queue.id), undefined);
      const gone = expectError(await ctx.as('mona').delete('/events', { queue_id: queue.id }), `Bad event queue ID: ${queue.id}`, 'BAD_EVENT_QUEUE_ID');
      assert.equal(gone.queue_id, queue.id);
      expectError(
        await ctx.as('mona').get('/events', { queue_id: queue.id, last_event_id: -1, dont_block: true }),
        `Bad event queue ID: ${queue.id}`,
        'BAD_EVENT_QUEUE_ID',
      );
    });

    it("refuses another user's queue and leaves it alone", async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
      const res = expectError(await ctx.as('mark').delete('/events', { queue_id: queue.id }), `Bad event queue ID: ${queue.id}`, 'BAD_EVENT_QUEUE_ID');
      assert.equal(res.queue_id, queue.id);
      assert.ok(ctx.services.queues.get(queue.id));
    });

    it('needs queue_id', async () => {
      expectError(await ctx.as('mark').delete('/events'), "Missing 'queue_id' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
