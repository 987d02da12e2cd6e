// PATCH /messages/{message_id}: content edits, request validation, editing permissions and limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { renderMarkdown } from '../../src/lib/markdown/index.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /messages/{message_id}: content [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (who: DevUserName, content = 'first draft', stream = 'general', topic = 'edits') =>
      expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to: stream, topic, content })).id as number;
    const fetch = async (who: DevUserName, id: number) => expectSuccess(await ctx.as(who).get(`/messages/${id}`));
    const setRealm = (changes: Record<string, unknown>) => setRealmSettings(ctx, changes);

    it('lets the sender change the content and records the previous version', async () => {
      const id = await send('mark');
      const sentAt = Math.floor(ctx.clock.now());
      ctx.clock.advance(30);
      assert.deepEqual(expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'second draft' })), { result: 'success', msg: '' });
      const { message, raw_content } = await fetch('mark', id);
      assert.equal(raw_content, 'second draft');
      assert.equal(message.content, renderMarkdown('second draft').html);
      assert.equal(message.last_edit_timestamp, sentAt + 30);
      assert.deepEqual(message.edit_history, [
        {
          user_id: ctx.seed.users.mark.id,
          timestamp: sentAt + 30,
          prev_content: 'first draft',
          prev_rendered_content: renderMarkdown('first draft').html,
          prev_rendered_content_version: 1,
        },
      ]);
      ctx.clock.advance(10);
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'third draft' }));
      const again = (await fetch('mona', id)).message;
      assert.deepEqual(again.edit_history.map((e: { prev_content: string }) => e.prev_content), ['second draft', 'first draft']);
      assert.equal(again.last_edit_timestamp, sentAt + 40);
    });

    it('stores blank content as "(deleted)" and truncates content beyond max_message_length', async () => {
      const id = await send('mark');
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: '   \n ' }));
      assert.equal((await fetch('mark', id)).raw_content, '(deleted)');
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'x'.repeat(10050) }));
      const raw = (await fetch('mark', id)).raw_content as string;
      assert.equal(raw.length, 10000);
      assert.ok(raw.endsWith('\n[message truncated]'));
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { content: 'a\u0000b' }), 'Message must not contain null bytes');
    });

    it("refuses anyone but the sender, administrators included", async () => {
      const id = await send('mark');
      expectError(await ctx.as('mona').patch(`/messages/${id}`, { content: 'mine now' }), "You don't have permission to edit this message");
      expectError(await ctx.as('olivia').patch(`/messages/${id}`, { content: 'mine now' }), "You don't have permission to edit this message");
      assert.equal((await fetch('mark', id)).raw_content, 'first draft');
    });

    it('refuses edits after message_content_edit_limit_seconds plus a 20-second grace', async () => {
      const id = await send('mark');
      ctx.clock.advance(620);
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'just in time' }));
      ctx.clock.advance(1);
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { content: 'too late' }), 'The time limit for editing this message has passed');
      await setRealm({ message_content_edit_limit_seconds: null });
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'no limit' }));
      await setRealm({ message_content_edit_limit_seconds: 60 });
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { content: 'limit again' }), 'The time limit for editing this message has passed');
      await setRealm({ message_content_edit_limit_seconds: 600 });
    });

    it('refuses content edits when the organization turned editing off', async () => {
      const id = await send('mark');
      await setRealm({ allow_message_editing: false });
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { content: 'x' }), 'Your organization has turned off message editing');
      await setRealm({ allow_message_editing: true });
    });

    it('validates the request in the reference order', async () => {
      const id = await send('mark');
      const { mona } = ctx.seed.users;
      const dm = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: 'hi' })).id;
      expectError(await ctx.as('mark').patch(`/messages/${id}`, {}), 'Nothing to change');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'edits' }), 'Nothing to change');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { stream_id: ctx.seed.streams.general.id }), 'Nothing to change');
      expectError(await ctx.as('mark').patch(`/messages/${dm}`, { topic: 'x' }), 'Direct messages cannot have topics.');
      expectError(await ctx.as('mark').patch(`/messages/${dm}`, { stream_id: ctx.seed.streams.general.id }), 'Direct messages cannot be moved to channels.');
      expectError(
        await ctx.as('mark').patch(`/messages/${id}`, { content: 'x', propagate_mode: 'change_all' }),
        'Invalid propagate_mode without topic edit',
      );
      expectError(
        await ctx.as('mark').patch(`/messages/${id}`, { content: 'x', stream_id: ctx.seed.streams.engineering.id }),
        'Cannot change message content while changing channel',
      );
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'x', propagate_mode: 'change_some' }), 'Invalid propagate_mode');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'bad\u0001topic' }), 'Invalid character in topic, at position 4!');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { stream_id: 999999 }), 'Invalid channel ID');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { stream_id: ctx.seed.streams.leadership.id }), 'Invalid channel ID');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { stream_id: 'general' }), 'stream_id is not valid JSON');
      expectError(await ctx.as('mark').patch('/messages/999999', { content: 'x' }), 'Invalid message(s)');
    });

    it('hides messages the requester cannot read', async () => {
      const id = await send('adam', 'secret', 'leadership', 'plans');
      expectError(await ctx.as('mark').patch(`/messages/${id}`, { topic: 'leaked' }), 'Invalid message(s)');
      const general = await send('mark');
      expectError(await ctx.as('gus').patch(`/messages/${general}`, { topic: 'guest move' }), 'Invalid message(s)');
    });

    it('edits direct messages and tells both sides with their own flags', async () => {
      const { mark, mona } = ctx.seed.users;
      const id = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: 'hi there' })).id;
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'hello there' }));
      // Neither side has read it through this client: both hold it with no flags.
      assert.deepEqual(
        ctx.events.map((d) => ({ users: d.users, flags: d.event.flags, type: d.event.type })),
        [{ users: [mark.id, mona.id], flags: [], type: 'update_message' }],
      );
      const event = ctx.events[0]!.event;
      assert.equal(event.stream_id, undefined);
      assert.deepEqual(event.message_ids, [id]);
      assert.equal(event.orig_content, 'hi there');
      assert.equal(event.content, 'hello there');
      assert.equal(event.rendered_content, renderMarkdown('hello there').html);
      assert.equal(event.is_me_message, false);
    });

    it('sends a stream edit to holders with their flags and to later subscribers as read', async () => {
      const { mark, gus } = ctx.seed.users;
      const id = await send('mark', 'before', 'general', 'audience');
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [gus.id] }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: '/me waves' }));
      const toGus = ctx.events.find((d) => d.users.includes(gus.id))!;
      assert.deepEqual(toGus.event.flags, ['read']);
      const toMark = ctx.events.find((d) => d.users.includes(mark.id))!;
      assert.deepEqual(toMark.event, {
        type: 'update_message',
        user_id: mark.id,
        edit_timestamp: Math.floor(ctx.clock.now()),
        message_id: id,
        rendering_only: false,
        orig_content: 'before',
        orig_rendered_content: renderMarkdown('before').html,
        content: '/me waves',
        rendered_content: renderMarkdown('/me waves').html,
        is_me_message: renderMarkdown('/me waves').isMeMessage,
        stream_name: 'general',
        stream_id: ctx.seed.streams.general.id,
        message_ids: [id],
        flags: [],
      });
    });

    it('shows edit history only as the realm allows', async () => {
      const id = await send('mark');
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'changed' }));
      await setRealm({ message_edit_history_visibility_policy: 'none' });
      let { message } = await fetch('mona', id);
      assert.equal(message.edit_history, undefined);
      assert.equal(typeof message.last_edit_timestamp, 'number');
      await setRealm({ message_edit_history_visibility_policy: 'moves' });
      ({ message } = await fetch('mona', id));
      assert.equal(message.edit_history, undefined);
      await setRealm({ message_edit_history_visibility_policy: 'all' });
      ({ message } = await fetch('mona', id));
      assert.equal(message.edit_history.length, 1);
    });

    it('applies wildcard_mention_policy to wildcard mentions in large streams and topics', async () => {
      // A stream of more than 15 subscribers: everyone in a fresh stream, plus a dozen new accounts.
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        const user = expectSuccess(await ctx.as('olivia').post('/users', { email: `crowd${i}@confab.test`, password: 'long enough password', full_name: `Crowd ${i}` }));
        ids.push(user.user_id);
      }
      const everyone = [...Object.values(ctx.seed.users).map((u) => u.id), ...ids];
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'crowd' }], principals: everyone }));
      const id = await send('mark', 'plain', 'crowd', 'wildcards');
      // The default policy (5) reserves wildcards in large audiences to administrators.
      expectError(
        await ctx.as('mark').patch(`/messages/${id}`, { content: '@**all** look' }),
        'You do not have permission to use channel wildcard mentions in this channel.',
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      );
      // A topic with few participants takes @**topic** from anyone.
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: '@**topic** look' }));
      const recipientId = (await ctx.services.db.selectFrom('stream').select('recipient_id').where('name', '=', 'crowd').executeTakeFirstOrThrow()).recipient_id!;
      for (const senderId of everyone) {
        await ctx.services.db
          .insertInto('message')
          .values({
            realm_id: ctx.seed.realm.id, sender_id: senderId, recipient_id: recipientId, subject: 'wildcards', content: 'me too',
            rendered_content: '<p>me too</p>', rendered_content_version: 1, date_sent: Math.floor(ctx.clock.now()), sending_client: 'test',
            last_edit_time: null, last_moved_time: null, edit_history: null, has_link: 0, has_image: 0, has_attachment: 0, is_me_message: 0,
          })
          .execute();
      }
      expectError(
        await ctx.as('mark').patch(`/messages/${id}`, { content: '@**topic** look again' }),
        'You do not have permission to use topic wildcard mentions in this topic.',
        'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      );
      await setRealm({ wildcard_mention_policy: 1 });
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: '@**all** look again' }));
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: '@**topic** look again' }));
      await setRealm({ wildcard_mention_policy: 5 });
      // Administrators pass the default policy.
      const own = await send('adam', 'plain', 'crowd', 'admin wildcards');
      expectSuccess(await ctx.as('adam').patch(`/messages/${own}`, { content: '@**all** look' }));
    });

    it('recomputes mention flags from the new content', async () => {
      const { mona } = ctx.seed.users;
      const id = await send('mark', 'no mention yet', 'design', 'mentions');
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'hello @**Mona Member**' }));
      assert.deepEqual(ctx.events.find((d) => d.users.includes(mona.id))!.event.flags, ['mentioned']);
      assert.deepEqual((await fetch('mona', id)).message.flags, ['mentioned']);
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'hello @**all**' }));
      assert.deepEqual((await fetch('mona', id)).message.flags, ['stream_wildcard_mentioned', 'wildcard_mentioned']);
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { content: 'hello again' }));
      assert.deepEqual((await fetch('mona', id)).message.flags, []);
    });
  });
}
