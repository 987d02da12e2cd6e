import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /scheduled_messages/{id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(async () => {
      await ctx.services.db.deleteFrom('scheduled_message').execute();
      ctx.clearEvents();
    });

    const later = (extra = 0) => Math.floor(ctx.clock.now()) + 3600 + extra;
    async function scheduled(params: Record<string, unknown> = {}): Promise<number> {
      const general = ctx.seed.streams.general.id;
      const body = { type: 'stream', to: String(general), topic: 'plans', content: 'draft one', scheduled_delivery_timestamp: later(), ...params };
      return expectSuccess(await ctx.as('mark').post('/scheduled_messages', body)).scheduled_message_id as number;
    }
    const edit = (id: number, params: Record<string, unknown>) => ctx.as('mark').patch(`/scheduled_messages/${id}`, params);
    const only = async () => {
      const list = expectSuccess(await ctx.as('mark').get('/scheduled_messages')).scheduled_messages as Array<Record<string, unknown>>;
      assert.equal(list.length, 1);
      return list[0]!;
    };

    it('changes the content, topic and time, and tells the sender', async () => {
      const { mark } = ctx.seed.users;
      const id = await scheduled();
      ctx.clearEvents();
      expectSuccess(await edit(id, { content: 'Now *final*', topic: 'new plans', scheduled_delivery_timestamp: later(60) }));
      const updated = await only();
      assert.deepEqual(updated, {
        scheduled_message_id: id,
        content: 'Now *final*',
        rendered_content: '<p>Now <em>final</em></p>',
        scheduled_delivery_timestamp: later(60),
        failed: false,
        type: 'stream',
        to: ctx.seed.streams.general.id,
        topic: 'new plans',
      });
      assert.deepEqual(ctx.events, [{ event: { type: 'scheduled_messages', op: 'update', scheduled_message: updated }, users: [mark.id] }]);
    });

    it('turns a channel message into a direct one and back', async () => {
      const { mona } = ctx.seed.users;
      const id = await scheduled();
      expectSuccess(await edit(id, { type: 'direct', to: JSON.stringify([mona.id]) }));
      const direct = await only();
      assert.deepEqual([direct.type, direct.to, 'topic' in direct, direct.content], ['private', [mona.id], false, 'draft one']);
      expectError(await edit(id, { type: 'stream', to: String(ctx.seed.streams.design.id) }), 'Topic required when updating scheduled message type to stream.');
      expectSuccess(await edit(id, { type: 'channel', to: String(ctx.seed.streams.engineering.id), topic: 'back' }));
      const stream = await only();
      assert.deepEqual([stream.type, stream.to, stream.topic], ['stream', ctx.seed.streams.engineering.id, 'back']);
    });

    it("ignores a new topic for a direct message, as the reference does", async () => {
      const { mona } = ctx.seed.users;
      const id = await scheduled({ type: 'direct', to: JSON.stringify([mona.id]), topic: undefined });
      expectSuccess(await edit(id, { topic: 'ignored' }));
      assert.equal('topic' in (await only()), false);
    });

    it('answers the reference errors', async () => {
      const id = await scheduled();
      expectError(await edit(id, {}), 'Nothing to change');
      expectError(await edit(id, { type: 'direct' }), 'Recipient required when updating type of scheduled message.');
      expectError(await edit(id, { scheduled_delivery_timestamp: Math.floor(ctx.clock.now()) - 1 }), 'Scheduled delivery time must be in the future.');
      expectError(await edit(id, { to: String(ctx.seed.streams.leadership.id) }), "Not authorized to send to channel 'leadership'");
      expectError(await edit(id, { content: '' }), 'Message must not be empty');
      expectError(await edit(99999, { content: 'x' }), 'Scheduled message does not exist', 'BAD_REQUEST', 404);
      // Someone else's is as absent as a missing one.
      expectError(await ctx.as('mona').patch(`/scheduled_messages/${id}`, { content: 'x' }), 'Scheduled message does not exist', 'BAD_REQUEST', 404);
      assert.equal((await only()).content, 'draft one');
    });

    it('refuses to change one already sent, and needs a new time for one that failed', async () => {
      const id = await scheduled();
      await ctx.services.db.updateTable('scheduled_message').set({ failed: 1, failure_message: 'x' }).where('id', '=', id).execute();
      expectError(await edit(id, { content: 'again' }), 'Scheduled delivery time must be in the future.');
      expectSuccess(await edit(id, { content: 'again', scheduled_delivery_timestamp: later(5) }));
      const retried = await only();
      assert.deepEqual([retried.failed, retried.content], [false, 'again']);
      await ctx.services.db.updateTable('scheduled_message').set({ delivered: 1 }).where('id', '=', id).execute();
      expectError(await edit(id, { content: 'too late' }), 'Scheduled message was already sent');
    });
  });
}
