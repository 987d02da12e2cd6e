// PATCH /messages/{message_id}: moving messages to another topic (propagate modes, notices,
// resolving), with the topic-editing policy and the move time limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, TEST_URL, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /messages/{message_id}: topic moves [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (who: DevUserName, topic: string, content = 'hello', stream = 'general') =>
      expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to: stream, topic, content })).id as number;
    const topicOf = async (id: number) =>
      (await ctx.services.db.selectFrom('message').select('subject').where('id', '=', id).executeTakeFirstOrThrow()).subject;
    /** The messages of a topic in general, oldest first. */
    const inTopic = (topic: string, stream: keyof TestContext['seed']['streams'] = 'general') =>
      ctx.services.db
        .selectFrom('message')
        .select(['id', 'sender_id', 'content'])
        .where('recipient_id', '=', ctx.seed.streams[stream].recipient_id!)
        .where('subject', '=', topic)
        .orderBy('id')
        .execute();
    const botId = () => ctx.seed.realm.notification_bot_id!;
    const notices = async (topic: string, stream: keyof TestContext['seed']['streams'] = 'general') =>
      (await inTopic(topic, stream)).filter((m) => m.sender_id === botId()).map((m) => m.content);
    const mention = (name: DevUserName) => `@_**${ctx.seed.users[name].full_name}|${ctx.seed.users[name].id}**`;
    const setRealm = (changes: Record<string, unknown>) => setRealmSettings(ctx, changes);

    it('moves one message by default, records the move and notifies the new thread', async () => {
      const first = await send('mark', 'alpha');
      const second = await send('mona', 'alpha');
      ctx.clock.advance(5);
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/messages/${second}`, { topic: 'beta' }));
      assert.equal(await topicOf(first), 'alpha');
      assert.equal(await topicOf(second), 'beta');
      const { message } = expectSuccess(await ctx.as('mark').get(`/messages/${second}`));
      const now = Math.floor(ctx.clock.now());
      assert.equal(message.last_edit_timestamp, now);
      assert.deepEqual(message.edit_history, [{ user_id: ctx.seed.users.mark.id, timestamp: now, prev_topic: 'alpha', topic: 'beta' }]);
      const link = `${TEST_URL}/#narrow/channel/${ctx.seed.streams.general.id}-general/topic/beta/near/${second}`;
      assert.deepEqual(await notices('beta'), [`[A message](${link}) was moved here from #**general>alpha** by ${mention('mark')}.`]);
      assert.deepEqual(await notices('alpha'), []);
      const update = ctx.events.find((d) => d.event.type === 'update_message')!.event;
      assert.deepEqual(
        { ...update, flags: undefined },
        {
          type: 'update_message',
          user_id: ctx.seed.users.mark.id,
          edit_timestamp: now,
          message_id: second,
          rendering_only: false,
          stream_name: 'general',
          stream_id: ctx.seed.streams.general.id,
          propagate_mode: 'change_one',
          orig_subject: 'alpha',
          subject: 'beta',
          topic_links: [],
          message_ids: [second],
          flags: undefined,
        },
      );
    });

    it('moves the target and later messages with change_later, and all with change_all', async () => {
      const [a, b, c] = [await send('mark', 'gamma'), await send('mona', 'Gamma'), await send('milo', 'gamma')];
      expectSuccess(await ctx.as('mark').patch(`/messages/${b}`, { subject: 'delta', propagate_mode: 'change_later', send_notification_to_old_thread: true }));
      assert.deepEqual([await topicOf(a), await topicOf(b), await topicOf(c)], ['gamma', 'delta', 'delta']);
      assert.deepEqual(await notices('delta'), [`2 messages were moved here from #**general>Gamma** by ${mention('mark')}.`]);
      assert.deepEqual(await notices('Gamma'), [`2 messages were moved from this topic to #**general>delta** by ${mention('mark')}.`]);
      // Other messages get only the move in their history.
      const { message } = expectSuccess(await ctx.as('mark').get(`/messages/${c}`));
      assert.deepEqual(Object.keys(message.edit_history[0]), ['user_id', 'timestamp', 'prev_topic', 'topic']);
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/messages/${c}`, { topic: 'epsilon', propagate_mode: 'change_all', send_notification_to_old_thread: true }));
      const update = ctx.events.find((d) => d.event.type === 'update_message')!.event;
      assert.equal(update.propagate_mode, 'change_all');
      // The whole topic moves, the earlier notice in it included; the new notice comes last.
      const moved = (await inTopic('epsilon')).map((m) => m.id);
      assert.deepEqual(update.message_ids, moved.slice(0, -1));
      assert.deepEqual(moved.slice(0, 2), [b, c]);
      assert.deepEqual(await notices('epsilon'), [
        `2 messages were moved here from #**general>Gamma** by ${mention('mark')}.`,
        `This topic was moved here from #**general>delta** by ${mention('mark')}.`,
      ]);
      assert.deepEqual(await notices('delta'), [`This topic was moved to #**general>epsilon** by ${mention('mark')}.`]);
    });

    it('says how many messages joined an existing topic, and sends nothing when asked not to', async () => {
      await send('mona', 'existing');
      const id = await send('mark', 'joining');
      await send('mark', 'joining');
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'existing', propagate_mode: 'change_all' }));
      assert.deepEqual(await notices('existing'), [`2 messages were moved here from #**general>joining** by ${mention('mark')}.`]);
      const quiet = await send('mark', 'quiet move');
      expectSuccess(await ctx.as('mark').patch(`/messages/${quiet}`, { topic: 'quiet moved', send_notification_to_new_thread: false }));
      assert.deepEqual(await notices('quiet moved'), []);
    });

    it('strips and truncates topics to max_topic_length', async () => {
      const id = await send('mark', 'long one');
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: `  ${'t'.repeat(70)}  `, send_notification_to_new_thread: false }));
      assert.equal(await topicOf(id), `${'t'.repeat(57)}...`);
    });

    it('resolves and unresolves with a notice instead of a move notice; a quick undo removes it', async () => {
      const id = await send('mark', 'bug');
      await send('mona', 'bug');
      expectSuccess(await ctx.as('mona').patch(`/messages/${id}`, { topic: '✔ bug', propagate_mode: 'change_all' }));
      assert.deepEqual(await notices('✔ bug'), [`${mention('mona')} has marked this topic as resolved.`]);
      ctx.clock.advance(61);
      const last = (await inTopic('✔ bug')).at(-1)!.id;
      expectSuccess(await ctx.as('mark').patch(`/messages/${last}`, { topic: 'bug', propagate_mode: 'change_all' }));
      assert.deepEqual(await notices('bug'), [
        `${mention('mona')} has marked this topic as resolved.`,
        `${mention('mark')} has marked this topic as unresolved.`,
      ]);
      // Resolving again and undoing within a minute leaves no trace of either.
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: '✔ bug', propagate_mode: 'change_all' }));
      ctx.clock.advance(30);
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'bug', propagate_mode: 'change_all' }));
      assert.equal((await notices('bug')).length, 2);
      assert.deepEqual(await inTopic('✔ bug'), []);
    });

    it('follows edit_topic_policy, for messages without a topic too', async () => {
      const id = await send('mark', '');
      assert.equal(await topicOf(id), '(no topic)');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: '  ' }), 'Nothing to change');
      await setRealm({ edit_topic_policy: 2 });
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'named' }), "You don't have permission to edit this message");
      await setRealm({ edit_topic_policy: 4 });
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'named' }), "You don't have permission to edit this message");
      expectSuccess(await ctx.as('maya').patch(`/messages/${id}`, { topic: 'named' }));
      await setRealm({ edit_topic_policy: 6 });
      expectError(await ctx.as('olivia').patch(`/messages/${id}`, { topic: 'renamed' }), "You don't have permission to edit this message");
      await setRealm({ edit_topic_policy: 5 });
      expectSuccess(await ctx.as('mona').patch(`/messages/${id}`, { topic: 'renamed' }));
    });

    it('refuses topic edits after move_messages_within_stream_limit_seconds, except to moderators', async () => {
      const id = await send('mark', 'aging');
      ctx.clock.advance(604820);
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'aged' }));
      ctx.clock.advance(1);
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'too old' }), "The time limit for editing this message's topic has passed.");
      expectSuccess(await ctx.as('maya').patch(`/messages/${id}`, { topic: 'moderated' }));
      await setRealm({ move_messages_within_stream_limit_seconds: null });
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'unlimited' }));
      await setRealm({ move_messages_within_stream_limit_seconds: 604800 });
    });

    it('refuses change_all when part of the topic is past the limit, saying what may move', async () => {
      await setRealm({ move_messages_within_stream_limit_seconds: 3600 });
      await send('mona', 'history');
      ctx.clock.advance(7200);
      const recent = await send('mona', 'history');
      const last = await send('mark', 'history');
      const res = await ctx.as('mark').patch(`/messages/${last}`, { topic: 'history moved', propagate_mode: 'change_all' });
      const body = expectError(res, 'You only have permission to move the 2/3 most recent messages in this topic.', 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED');
      assert.equal(body.first_message_id_allowed_to_move, recent);
      assert.equal(body.total_messages_in_topic, 3);
      assert.equal(body.total_messages_allowed_to_move, 2);
      expectSuccess(await ctx.as('mark').patch(`/messages/${recent}`, { topic: 'history moved', propagate_mode: 'change_later' }));
      assert.equal((await inTopic('history')).filter((m) => m.sender_id !== botId()).length, 1);
      expectSuccess(await ctx.as('adam').patch(`/messages/${recent}`, { topic: 'history', propagate_mode: 'change_all' }));
      await setRealm({ move_messages_within_stream_limit_seconds: 604800 });
    });
  });
}
