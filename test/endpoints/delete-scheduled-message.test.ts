import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /scheduled_messages/{id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it("cancels the sender's own scheduled message and tells the sender; others' stay", async () => {
      const { mark } = ctx.seed.users;
      const body = { type: 'stream', to: String(ctx.seed.streams.general.id), topic: 't', content: 'x', scheduled_delivery_timestamp: Math.floor(ctx.clock.now()) + 60 };
      const id = expectSuccess(await ctx.as('mark').post('/scheduled_messages', body)).scheduled_message_id as number;
      expectError(await ctx.as('mona').delete(`/scheduled_messages/${id}`), 'Scheduled message does not exist', 'BAD_REQUEST', 404);
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').delete(`/scheduled_messages/${id}`));
      assert.deepEqual(ctx.events, [{ event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, users: [mark.id] }]);
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/scheduled_messages')).scheduled_messages, []);
      expectError(await ctx.as('mark').delete(`/scheduled_messages/${id}`), 'Scheduled message does not exist', 'BAD_REQUEST', 404);
    });
  });
}
