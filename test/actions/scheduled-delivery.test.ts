// Scheduled messages go out when due, as their sender would send them then; those that cannot
// are marked failed, and the sender hears why from Notification Bot.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { deliverDueScheduledMessages } from '../../src/actions/scheduled-delivery.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`scheduled message delivery [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(async () => {
      await ctx.services.db.deleteFrom('scheduled_message').execute();
      ctx.clearEvents();
    });

    async function schedule(who: DevUserName, params: Record<string, unknown>, inSeconds = 600): Promise<{ id: number; at: number }> {
      const at = Math.floor(ctx.clock.now()) + inSeconds;
      const id = expectSuccess(await ctx.as(who).post('/scheduled_messages', { scheduled_delivery_timestamp: at, ...params })).scheduled_message_id as number;
      return { id, at };
    }
    const row = (id: number) => ctx.services.db.selectFrom('scheduled_message').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const newest = async (who: DevUserName, narrow: unknown[]) =>
      (expectSuccess(await ctx.as(who).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify(narrow) })).messages as Array<Record<string, any>>)[0];

    it('sends a due channel message as its sender, with the flags it asked for, and drops it from the list', async () => {
      const { mark } = ctx.seed.users;
      const general = ctx.seed.streams.general.id;
      const { id, at } = await schedule('mark', { type: 'stream', to: String(general), topic: 'later', content: 'On time', read_by_sender: true });
      ctx.clock.set(at - 1);
      assert.equal(await deliverDueScheduledMessages(ctx.services), 0);
      ctx.clock.set(at);
      ctx.clearEvents();
      assert.equal(await deliverDueScheduledMessages(ctx.services), 1);
      const sent = await newest('mona', [{ operator: 'stream', operand: general }, { operator: 'topic', operand: 'later' }]);
      assert.deepEqual([sent?.sender_id, sent?.content, sent?.timestamp], [mark.id, '<p>On time</p>', at]);
      const own = await newest('mark', [{ operator: 'id', operand: sent!.id }]);
      assert.ok(own?.flags.includes('read'));
      const stored = await row(id);
      assert.deepEqual([stored.delivered, stored.delivered_message_id], [1, sent!.id]);
      assert.ok(ctx.events.some((d) => d.event.type === 'scheduled_messages' && d.event.op === 'remove' && d.event.scheduled_message_id === id && d.users.join() === String(mark.id)));
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/scheduled_messages')).scheduled_messages, []);
      assert.equal(await deliverDueScheduledMessages(ctx.services), 0, 'sent once');
    });

    it('sends a due direct message to a group', async () => {
      const { mona, milo } = ctx.seed.users;
      const { at } = await schedule('mark', { type: 'direct', to: JSON.stringify([mona.id, milo.id]), content: 'Group hello' });
      ctx.clock.set(at + 30);
      await deliverDueScheduledMessages(ctx.services);
      const sent = await newest('milo', [{ operator: 'dm', operand: [mona.id, ctx.seed.users.mark.id] }]);
      assert.equal(sent?.content, '<p>Group hello</p>');
    });

    it('marks one that is more than ten minutes late failed, and Notification Bot tells the sender', async () => {
      const { mark } = ctx.seed.users;
      const { id, at } = await schedule('mark', { type: 'stream', to: String(ctx.seed.streams.general.id), topic: 't', content: 'Too late' });
      ctx.clock.set(at + 601);
      ctx.clearEvents();
      await deliverDueScheduledMessages(ctx.services);
      const stored = await row(id);
      assert.deepEqual([stored.delivered, stored.failed, stored.failure_message], [0, 1, 'Message could not be sent at the scheduled time.']);
      const update = ctx.events.find((d) => d.event.type === 'scheduled_messages');
      assert.deepEqual([update?.event.op, (update?.event.scheduled_message as { failed: boolean }).failed, update?.users], ['update', true, [mark.id]]);
      const notice = await newest('mark', [{ operator: 'dm', operand: [ctx.seed.realm.notification_bot_id] }]);
      const iso = new Date(at * 1000).toISOString().replace('.000Z', 'Z');
      assert.equal(notice?.sender_id, ctx.seed.realm.notification_bot_id);
      assert.match(notice?.content, new RegExp(`^<p>The message you scheduled for <time datetime="${iso}">${iso.replace('Z', '\\+00:00')}</time> was not sent`));
      assert.match(notice?.content, /<blockquote>\n<p>Message could not be sent at the scheduled time\.<\/p>\n<\/blockquote>/);
      const listed = expectSuccess(await ctx.as('mark').get('/scheduled_messages')).scheduled_messages as Array<{ failed: boolean }>;
      assert.deepEqual(listed.map((m) => m.failed), [true]);
      assert.equal(await deliverDueScheduledMessages(ctx.services), 0, 'a failed one is not retried');
    });

    it('fails with the send error when the recipient has left since', async () => {
      const { id, at } = await schedule('mark', { type: 'direct', to: JSON.stringify([ctx.seed.users.mona.id]), content: 'Hello?' });
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.mona.id).execute();
      try {
        ctx.clock.set(at);
        await deliverDueScheduledMessages(ctx.services);
        assert.deepEqual([(await row(id)).failed, (await row(id)).failure_message], [1, "'mona@confab.test' is no longer using Zulip."]);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', ctx.seed.users.mona.id).execute();
      }
    });

    it('fails silently when the sender has been deactivated', async () => {
      const { id, at } = await schedule('milo', { type: 'stream', to: String(ctx.seed.streams.general.id), topic: 't', content: 'Gone' });
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
      try {
        ctx.clock.set(at);
        ctx.clearEvents();
        await deliverDueScheduledMessages(ctx.services);
        assert.equal((await row(id)).failed, 1);
        assert.deepEqual(ctx.events, []);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', ctx.seed.users.milo.id).execute();
      }
    });

    it('does not send one cancelled before its time', async () => {
      const { id, at } = await schedule('mark', { type: 'stream', to: String(ctx.seed.streams.general.id), topic: 'cancelled', content: 'Never' });
      expectSuccess(await ctx.as('mark').delete(`/scheduled_messages/${id}`));
      ctx.clock.set(at);
      assert.equal(await deliverDueScheduledMessages(ctx.services), 0);
    });
  });
}
