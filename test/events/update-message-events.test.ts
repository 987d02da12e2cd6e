// Events of message edits and moves: their shapes against the reference schemas, and that an
// earlier POST /register state plus the events equals a fresh one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';
import { verifyFolding } from '../support/register-state.js';


function asDelivered(event: Record<string, unknown>, id: number): Record<string, unknown> {
  const { internal: _internal, sender_queue_id: _queue, ...rest } = event;
  return { ...rest, id };
}

for (const dialect of testDialects()) {
  describe(`update_message events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (who: DevUserName, stream: string, topic: string, content = 'hello') =>
      expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to: stream, topic, content })).id as number;

    /** Runs the trigger and checks every published event; returns the types seen. */
    async function shapesOf(trigger: () => Promise<unknown>): Promise<Set<string>> {
      ctx.clearEvents();
      await trigger();
      ctx.events.forEach(({ event }, i) => checkEvent(asDelivered(event, i)));
      return new Set(ctx.events.map((d) => String(d.event.type)));
    }

    const verify = (watchers: DevUserName[], action: () => Promise<void>) => verifyFolding(ctx, { watchers, action, changing: [] });

    it('content edits of stream and direct messages match the reference shape', async () => {
      const id = await send('mark', 'general', 'shapes');
      const dm = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [ctx.seed.users.mona.id], content: 'dm' })).id;
      const seen = await shapesOf(async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'edited' }));
        expectSuccess(await ctx.as('mark').patch(`/messages/${dm}`, { content: 'dm edited' }));
        expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'edited and moved', topic: 'shapes 2', propagate_mode: 'change_all' }));
      });
      const both = ctx.events.find((d) => d.event.type === 'update_message' && d.event.subject === 'shapes 2')!.event;
      assert.equal(both.content, 'edited and moved');
      assert.equal(both.orig_subject, 'shapes');
      assert.deepEqual([...seen].sort(), ['message', 'update_message']);
    });

    it('topic moves, resolving and stream moves match the reference shapes', async () => {
      const id = await send('mark', 'general', 'shape moves');
      const { mona } = ctx.seed.users;
      const { general, leadership } = ctx.seed.streams;
      await ctx.services.db
        .insertInto('user_topic')
        .values({ user_id: mona.id, stream_id: general.id, recipient_id: general.recipient_id!, topic_name: 'shape moves', last_updated: 0, visibility_policy: 1 })
        .execute();
      const seen = await shapesOf(async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'shape moved', propagate_mode: 'change_all', send_notification_to_old_thread: true }));
        expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: '✔ shape moved', propagate_mode: 'change_all' }));
        expectSuccess(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: leadership.id, propagate_mode: 'change_all' }));
      });
      assert.deepEqual([...seen].sort(), ['delete_message', 'message', 'muted_topics', 'update_message', 'user_topic']);
    });

    it('folds content edits that add and remove a mention of an unread message', async () => {
      const id = await send('mark', 'general', 'folding');
      await verify(['mark', 'mona'], async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'hello @**Mona Member**' }));
      });
      await verify(['mark', 'mona'], async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'hello again' }));
      });
    });

    it('folds topic moves of unread messages into the unread summary', async () => {
      await send('mona', 'general', 'Existing');
      const first = await send('mark', 'general', 'unread a');
      await send('mark', 'general', 'unread a');
      await verify(['mark', 'mona', 'olivia'], async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${first}`, { topic: 'unread b', propagate_mode: 'change_later' }));
      });
      await verify(['mark', 'mona', 'olivia'], async () => {
        expectSuccess(await ctx.as('mark').patch(`/messages/${first}`, { topic: 'existing', propagate_mode: 'change_all', send_notification_to_old_thread: true }));
      });
      await verify(['mark', 'mona'], async () => {
        expectSuccess(await ctx.as('mona').patch(`/messages/${first}`, { topic: '✔ existing', propagate_mode: 'change_all' }));
      });
    });

    it('folds stream moves for people on both streams and people who lose the messages', async () => {
      const { engineering, leadership } = ctx.seed.streams;
      const id = await send('milo', 'general', 'moving out');
      await send('mona', 'general', 'moving out');
      await verify(['mark', 'milo', 'olivia'], async () => {
        expectSuccess(await ctx.as('milo').patch(`/messages/${id}`, { stream_id: engineering.id, propagate_mode: 'change_all', send_notification_to_old_thread: true }));
      });
      await verify(['mark', 'milo', 'olivia', 'adam'], async () => {
        expectSuccess(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: leadership.id, topic: 'private now', propagate_mode: 'change_all' }));
      });
    });
  });
}
