// PATCH /messages/{message_id} with stream_id: moving messages between streams, who gains and
// loses them, the moving policy and limits, protected history, and topic preferences.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /messages/{message_id}: stream moves [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (who: DevUserName, stream: string, topic: string, content = 'hello') =>
      expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to: stream, topic, content })).id as number;
    const streamId = async (name: string) =>
      (await ctx.services.db.selectFrom('stream').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const holders = async (id: number) =>
      (await ctx.services.db.selectFrom('user_message').select(['user_id', 'flags']).where('message_id', '=', id).orderBy('user_id').execute());
    const location = async (id: number) => {
      const row = await ctx.services.db
        .selectFrom('message')
        .innerJoin('recipient', 'recipient.id', 'message.recipient_id')
        .select(['recipient.type_id', 'message.subject'])
        .where('message.id', '=', id)
        .executeTakeFirstOrThrow();
      return [row.type_id, row.subject];
    };
    const mention = (name: DevUserName) => `@_**${ctx.seed.users[name].full_name}|${ctx.seed.users[name].id}**`;
    const lastContent = async (stream: string, topic: string) => {
      const recipient = (await ctx.services.db.selectFrom('stream').select('recipient_id').where('name', '=', stream).executeTakeFirstOrThrow()).recipient_id!;
      const row = await ctx.services.db
        .selectFrom('message')
        .select(['content', 'sender_id'])
        .where('recipient_id', '=', recipient)
        .where('subject', '=', topic)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return row.sender_id === ctx.seed.realm.notification_bot_id ? row.content : null;
    };
    const setRealm = (changes: Record<string, unknown>) => setRealmSettings(ctx, changes);
    const users = (...names: DevUserName[]) => names.map((n) => ctx.seed.users[n].id).sort((a, b) => a - b);

    it('moves a topic to another public stream; rows follow the new subscribers, everyone hears of it', async () => {
      const { general, engineering } = ctx.seed.streams;
      const first = await send('mark', 'general', 'infra');
      const second = await send('mona', 'general', 'infra');
      ctx.clearEvents();
      expectSuccess(
        await ctx.as('mark').patch(`/messages/${first}`, { stream_id: engineering.id, propagate_mode: 'change_all', send_notification_to_old_thread: true }),
      );
      assert.deepEqual(await location(first), [engineering.id, 'infra']);
      assert.deepEqual(await location(second), [engineering.id, 'infra']);
      // general's subscribers who are not on engineering lose their rows (they can still read public history).
      assert.deepEqual((await holders(second)).map((r) => r.user_id), users('olivia', 'adam', 'mark', 'milo'));
      const updates = ctx.events.filter((d) => d.event.type === 'update_message');
      const reached = updates.flatMap((d) => d.users).sort((a, b) => a - b);
      assert.deepEqual(reached, users('olivia', 'adam', 'maya', 'mark', 'mona', 'milo', 'welcomeBot'));
      const toMona = updates.find((d) => d.users.includes(ctx.seed.users.mona.id))!.event;
      assert.deepEqual(toMona.flags, ['read']);
      assert.equal(toMona.new_stream_id, engineering.id);
      assert.equal(toMona.stream_id, general.id);
      assert.equal(toMona.orig_subject, 'infra');
      assert.equal(toMona.subject, undefined);
      assert.equal(toMona.topic_links, undefined);
      assert.deepEqual(toMona.message_ids, [first, second]);
      assert.equal(ctx.events.some((d) => d.event.type === 'delete_message'), false);
      const { message } = expectSuccess(await ctx.as('mark').get(`/messages/${second}`));
      assert.deepEqual(Object.keys(message.edit_history[0]), ['user_id', 'timestamp', 'prev_stream', 'stream']);
      assert.equal(message.edit_history[0].prev_stream, general.id);
      assert.equal(await lastContent('engineering', 'infra'), `This topic was moved here from #**general>infra** by ${mention('mark')}.`);
      assert.equal(await lastContent('general', 'infra'), `This topic was moved to #**engineering>infra** by ${mention('mark')}.`);
    });

    it('moving into a private stream deletes the messages for everyone not subscribed there', async () => {
      const { general, leadership } = ctx.seed.streams;
      const id = await send('mark', 'general', 'confidential');
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: leadership.id, topic: 'vault', send_notification_to_new_thread: false }));
      assert.deepEqual(await location(id), [leadership.id, 'vault']);
      assert.deepEqual((await holders(id)).map((r) => r.user_id), users('olivia', 'adam'));
      const deletion = ctx.events.find((d) => d.event.type === 'delete_message')!;
      assert.deepEqual(deletion.event, { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: general.id, topic: 'confidential' });
      assert.deepEqual([...deletion.users].sort((a, b) => a - b), users('maya', 'mark', 'mona', 'milo', 'welcomeBot'));
      const update = ctx.events.find((d) => d.event.type === 'update_message')!;
      assert.deepEqual([...update.users].sort((a, b) => a - b), users('olivia', 'adam'));
      assert.equal(update.event.subject, 'vault');
      expectError(await ctx.as('mark').get(`/messages/${id}`), 'Invalid message(s)');
    });

    it('gives every subscriber of a stream with protected history a read row', async () => {
      const vault = expectSuccess(
        await ctx.as('mark').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'protected' }],
          invite_only: true,
          history_public_to_subscribers: false,
          principals: [ctx.seed.users.mark.id, ctx.seed.users.gus.id],
        }),
      );
      assert.ok(vault);
      const id = await send('mark', 'general', 'to protect');
      expectSuccess(await ctx.as('mark').patch(`/messages/${id}`, { stream_id: await streamId('protected') }));
      const rows = await holders(id);
      assert.deepEqual(rows.map((r) => r.user_id), users('mark', 'gus'));
      assert.equal(rows.find((r) => r.user_id === ctx.seed.users.gus.id)!.flags, FLAG_BITS.read);
    });

    it('moves only what the actor can read out of a stream with protected history, without the limit error', async () => {
      const { general } = ctx.seed.streams;
      expectSuccess(
        await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'archive' }], invite_only: true, history_public_to_subscribers: false }),
      );
      await setRealm({ move_messages_between_streams_limit_seconds: 3600 });
      const early = await send('olivia', 'archive', 'notes');
      ctx.clock.advance(7200);
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'archive' }], principals: [ctx.seed.users.mark.id] }));
      const later = await send('olivia', 'archive', 'notes');
      const last = await send('mark', 'archive', 'notes');
      expectSuccess(await ctx.as('mark').patch(`/messages/${last}`, { stream_id: general.id, propagate_mode: 'change_all' }));
      assert.deepEqual((await location(early))[0], await streamId('archive'));
      assert.deepEqual((await location(later))[0], general.id);
      assert.deepEqual((await location(last))[0], general.id);
      await setRealm({ move_messages_between_streams_limit_seconds: 604800 });
    });

    it('follows move_messages_between_streams_policy and the destination posting policy', async () => {
      const { design, engineering } = ctx.seed.streams;
      const id = await send('milo', 'general', 'policies');
      await setRealm({ move_messages_between_streams_policy: 2 });
      expectError(await ctx.as('milo').patch(`/messages/${id}`, { stream_id: design.id }), "You don't have permission to move this message");
      await setRealm({ move_messages_between_streams_policy: 1 });
      await ctx.services.db.updateTable('stream').set({ stream_post_policy: 2 }).where('id', '=', engineering.id).execute();
      expectError(await ctx.as('milo').patch(`/messages/${id}`, { stream_id: engineering.id }), 'Only organization administrators can send to this channel.');
      await ctx.services.db.updateTable('stream').set({ stream_post_policy: 1 }).where('id', '=', engineering.id).execute();
      expectSuccess(await ctx.as('milo').patch(`/messages/${id}`, { stream_id: design.id }));
    });

    it('refuses guests by the default policy and moves past the between-streams limit, except for moderators', async () => {
      const { general, design } = ctx.seed.streams;
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }, { name: 'design' }], principals: [ctx.seed.users.gus.id] }));
      const guestMessage = await send('gus', 'general', 'guest topic');
      expectError(await ctx.as('gus').patch(`/messages/${guestMessage}`, { stream_id: design.id }), "You don't have permission to move this message");
      const id = await send('mona', 'design', 'old news');
      ctx.clock.advance(604821);
      expectError(await ctx.as('mona').patch(`/messages/${id}`, { stream_id: general.id }), "The time limit for editing this message's channel has passed");
      expectSuccess(await ctx.as('maya').patch(`/messages/${id}`, { stream_id: general.id }));
    });

    it('tells guests who lose a moved topic that it is gone, and leaves out guests only on the new stream', async () => {
      const { mark, gus } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'members only' }] }));
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'with guest' }], principals: [mark.id, gus.id] }));
      const fromGeneral = await send('mark', 'general', 'guest leaves');
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/messages/${fromGeneral}`, { stream_id: await streamId('members only') }));
      const deletion = ctx.events.find((d) => d.event.type === 'delete_message')!;
      assert.deepEqual(deletion.users, [gus.id]);
      assert.equal(ctx.events.some((d) => d.event.type === 'update_message' && d.users.includes(gus.id)), false);
      const fromMembers = await send('mark', 'members only', 'guest arrives');
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/messages/${fromMembers}`, { stream_id: await streamId('with guest') }));
      assert.equal(ctx.events.some((d) => d.event.type === 'update_message' && d.users.includes(gus.id)), false);
      assert.ok(ctx.events.some((d) => d.event.type === 'update_message' && d.users.includes(mark.id)));
    });

    it('moves topic preferences with a topic that moves whole, merging with the destination', async () => {
      const { general, design } = ctx.seed.streams;
      const { mona, maya } = ctx.seed.users;
      const id = await send('mona', 'general', 'muted one');
      await send('maya', 'design', 'target');
      const insert = (userId: number, streamId: number, recipientId: number, topic: string, policy: number) =>
        ctx.services.db
          .insertInto('user_topic')
          .values({ user_id: userId, stream_id: streamId, recipient_id: recipientId, topic_name: topic, last_updated: 0, visibility_policy: policy })
          .execute();
      await insert(mona.id, general.id, general.recipient_id!, 'muted one', 1);
      await insert(maya.id, general.id, general.recipient_id!, 'muted one', 3);
      await insert(maya.id, design.id, design.recipient_id!, 'target', 1);
      ctx.clearEvents();
      expectSuccess(await ctx.as('mona').patch(`/messages/${id}`, { stream_id: design.id, topic: 'target', propagate_mode: 'change_all' }));
      const rows = await ctx.services.db.selectFrom('user_topic').select(['user_id', 'stream_id', 'topic_name', 'visibility_policy']).orderBy('user_id').execute();
      // Merging into a topic with messages keeps the more visible preference: followed beats muted,
      // and no preference beats muted (Mona's mute does not carry over to Maya's busy topic).
      assert.deepEqual(rows.filter((r) => r.topic_name === 'target' || r.topic_name === 'muted one'), [
        { user_id: maya.id, stream_id: design.id, topic_name: 'target', visibility_policy: 3 },
      ]);
      const seen = (user: number) =>
        ctx.events.filter((d) => d.event.type === 'user_topic' && d.users.includes(user)).map((d) => [d.event.stream_id, d.event.topic_name, d.event.visibility_policy]);
      assert.deepEqual(seen(mona.id), [[general.id, 'muted one', 0]]);
      assert.deepEqual(seen(maya.id), [
        [general.id, 'muted one', 0],
        [design.id, 'target', 3],
      ]);
      // Into a topic without messages, the preference moves as it was.
      const lone = await send('mona', 'general', 'lone');
      await insert(mona.id, general.id, general.recipient_id!, 'lone', 1);
      expectSuccess(await ctx.as('mona').patch(`/messages/${lone}`, { stream_id: design.id, propagate_mode: 'change_all' }));
      const moved = await ctx.services.db.selectFrom('user_topic').select(['stream_id', 'visibility_policy']).where('user_id', '=', mona.id).where('topic_name', '=', 'lone').execute();
      assert.deepEqual(moved, [{ stream_id: design.id, visibility_policy: 1 }]);
    });
  });
}
