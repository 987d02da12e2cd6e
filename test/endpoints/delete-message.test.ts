import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /messages/{message_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (who: DevUserName, stream = 'general', topic = 'cleanup') =>
      expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to: stream, topic, content: 'oops' })).id as number;
    const exists = async (id: number) =>
      (await ctx.services.db.selectFrom('message').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

    it('lets the sender delete within the time limit and tells every recipient', async () => {
      const id = await send('mark');
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').delete(`/messages/${id}`));
      assert.equal(await exists(id), false);
      const rows = await ctx.services.db.selectFrom('user_message').select('user_id').where('message_id', '=', id).execute();
      assert.equal(rows.length, 0);
      const [delivery] = ctx.events;
      assert.deepEqual(delivery!.event, {
        type: 'delete_message',
        message_ids: [id],
        message_type: 'stream',
        stream_id: ctx.seed.streams.general.id,
        topic: 'cleanup',
      });
      assert.ok(delivery!.users.includes(ctx.seed.users.mona.id));
      expectError(await ctx.as('mark').delete(`/messages/${id}`), 'Invalid message(s)');
    });

    it("refuses someone else's message to a member", async () => {
      const id = await send('mona');
      expectError(await ctx.as('mark').delete(`/messages/${id}`), "You don't have permission to delete this message");
      assert.equal(await exists(id), true);
    });

    it('refuses the sender after the time limit, but not an administrator', async () => {
      const id = await send('mark');
      ctx.clock.advance(601);
      expectError(await ctx.as('mark').delete(`/messages/${id}`), 'The time limit for deleting this message has passed');
      expectSuccess(await ctx.as('adam').delete(`/messages/${id}`));
      assert.equal(await exists(id), false);
    });

    it('lets a bot owner delete the bot message', async () => {
      const id = await send('welcomeBot');
      expectSuccess(await ctx.as('olivia').delete(`/messages/${id}`));
      assert.equal(await exists(id), false);
    });

    it('hides messages the requester cannot read', async () => {
      const id = await send('adam', 'leadership');
      expectError(await ctx.as('mark').delete(`/messages/${id}`), 'Invalid message(s)');
    });
  });
}
