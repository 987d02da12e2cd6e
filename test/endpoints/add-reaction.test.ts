import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /messages/{message_id}/reactions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (from: DevUserName, params: Record<string, unknown>) =>
      expectSuccess(await ctx.as(from).post('/messages', params)).id as number;
    const inGeneral = (topic = 'reactions') => send('mark', { type: 'stream', to: 'general', topic, content: 'react to me' });
    const reactionsOf = async (id: number, user: DevUserName = 'mona') => {
      const body = expectSuccess(await ctx.as(user).get(`/messages/${id}`));
      return body.message.reactions as Array<Record<string, unknown>>;
    };
    const reactionEvents = () => ctx.events.filter((d) => d.event.type === 'reaction');

    it('adds a Unicode emoji by name, shown in the message with the deprecated user object', async () => {
      const id = await inGeneral();
      ctx.clearEvents();
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
      const { mona } = ctx.seed.users;
      const user = { id: mona.id, email: mona.email, full_name: mona.full_name, is_mirror_dummy: false };
      assert.deepEqual(await reactionsOf(id), [
        { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: mona.id, user },
      ]);
      const [delivery] = reactionEvents();
      assert.deepEqual(delivery!.event, {
        type: 'reaction',
        op: 'add',
        user_id: mona.id,
        user: { user_id: mona.id, email: mona.email, full_name: mona.full_name },
        message_id: id,
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
      });
    });

    it('tells everyone who received the message and every subscriber of a shared-history stream', async () => {
      const id = await send('mark', { type: 'stream', to: 'engineering', topic: 'audience', content: 'x' });
      // Maya is not subscribed to engineering: she starts after the message was sent.
      expectSuccess(await ctx.as('maya').post('/users/me/subscriptions', { subscriptions: [{ name: 'engineering' }] }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').post(`/messages/${id}/reactions`, { emoji_name: 'tada' }));
      const { olivia, adam, mark, milo, maya } = ctx.seed.users;
      const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
      assert.deepEqual(sorted(reactionEvents()[0]!.users), sorted([olivia.id, adam.id, mark.id, milo.id, maya.id]));
      expectSuccess(await ctx.as('maya').delete('/users/me/subscriptions', { subscriptions: ['engineering'] }));
    });

    it('tells only those who received a message in a private stream without shared history', async () => {
      expectSuccess(
        await ctx.as('olivia').post('/users/me/subscriptions', {
          subscriptions: [{ name: 'secret-history' }],
          invite_only: true,
          history_public_to_subscribers: false,
        }),
      );
      const id = await send('olivia', { type: 'stream', to: 'secret-history', topic: 't', content: 'before adam' });
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret-history' }], principals: [ctx.seed.users.adam.id] }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').post(`/messages/${id}/reactions`, { emoji_name: 'heart' }));
      assert.deepEqual(reactionEvents()[0]!.users, [ctx.seed.users.olivia.id]);
      // Adam never received it and cannot see it.
      expectError(await ctx.as('adam').post(`/messages/${id}/reactions`, { emoji_name: 'heart' }), 'Invalid message(s)');
    });

    it('accepts an explicit code and type, and the extra zulip emoji', async () => {
      const id = await inGeneral();
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' }));
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'zulip' }));
      expectSuccess(await ctx.as('milo').post(`/messages/${id}/reactions`, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
      const summary = (await reactionsOf(id)).map((r) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id]);
      const { mona, milo } = ctx.seed.users;
      assert.deepEqual(summary, [
        ['tada', '1f389', 'unicode_emoji', mona.id],
        ['zulip', 'zulip', 'zulip_extra_emoji', mona.id],
        ['zulip', 'zulip', 'zulip_extra_emoji', milo.id],
      ]);
    });

    it('counts a second name for the same code as a vote for the reaction already there', async () => {
      const id = await inGeneral();
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'like' }));
      // "thumbs_up" is another name for the same emoji: Milo's reaction joins Mona's under her name.
      expectSuccess(await ctx.as('milo').post(`/messages/${id}/reactions`, { emoji_name: 'thumbs_up', emoji_code: '1f44d' }));
      const summary = (await reactionsOf(id)).map((r) => [r.emoji_name, r.emoji_code]);
      assert.deepEqual(summary, [
        ['like', '1f44d'],
        ['like', '1f44d'],
      ]);
    });

    it("takes names and codes from Zulip's emoji table, aliases included", async () => {
      const id = await inGeneral('names');
      const reactions = [
        ['+1', '1f44d'],
        ['smile', '1f642'],
        ['big_smile', '1f604'],
        ['flag_united_states', '1f1fa-1f1f8'],
        ['woman_running', '1f3c3-200d-2640'],
      ];
      for (const [name] of reactions) expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: name }));
      expectSuccess(await ctx.as('milo').post(`/messages/${id}/reactions`, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
      const summary = (await reactionsOf(id)).map((r) => [r.emoji_name, r.emoji_code]);
      assert.deepEqual(summary, [...reactions, ['+1', '1f44d']]);
    });

    it('refuses names and codes only emoji-datasource knows', async () => {
      const id = await inGeneral('unknown names');
      const mona = ctx.as('mona');
      const path = `/messages/${id}/reactions`;
      expectError(await mona.post(path, { emoji_name: 'thumbsup' }), "Emoji 'thumbsup' does not exist");
      expectError(await mona.post(path, { emoji_name: 'flag-us' }), "Emoji 'flag-us' does not exist");
      // With a code and a type the name is not looked up first; the code is checked, then the pair.
      // The clock faces Zulip leaves out are no emoji code, whatever the name.
      expectError(await mona.post(path, { emoji_name: 'clock1', emoji_code: '1f550', reaction_type: 'unicode_emoji' }), 'Invalid emoji code.');
      // smile is U+1F642 in Zulip's table, not U+1F604.
      expectError(await mona.post(path, { emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' }), 'Invalid emoji name.');
      expectError(await mona.post(path, { emoji_name: 'thumbsup', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }), 'Invalid emoji name.');
      expectError(await mona.post(path, { emoji_name: 'like', emoji_code: '1F44D', reaction_type: 'unicode_emoji' }), 'Invalid emoji code.');
      assert.deepEqual(await reactionsOf(id), []);
    });

    it('reacting to stream history never received keeps a read, historical row', async () => {
      const id = await send('mark', { type: 'stream', to: 'engineering', topic: 'history', content: 'old news' });
      const row = () =>
        ctx.services.db.selectFrom('user_message').select('flags').where('user_id', '=', ctx.seed.users.mona.id).where('message_id', '=', id).executeTakeFirst();
      assert.equal(await row(), undefined);
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'eyes' }));
      assert.equal((await row())!.flags, FLAG_BITS.read | FLAG_BITS.historical);
    });

    it('refuses with the reference texts and codes', async () => {
      const id = await inGeneral('errors');
      const mona = ctx.as('mona');
      const path = `/messages/${id}/reactions`;
      expectError(await mona.post(path, { emoji_name: 'no_such_emoji' }), "Emoji 'no_such_emoji' does not exist");
      expectError(await mona.post(path, { emoji_name: 'smile', emoji_code: 'fffff' }), 'Invalid emoji code.');
      expectError(await mona.post(path, { emoji_name: 'octopus', emoji_code: '1f389' }), 'Invalid emoji name.');
      expectError(await mona.post(path, { emoji_name: 'zulip', emoji_code: 'other', reaction_type: 'zulip_extra_emoji' }), 'Invalid emoji code.');
      expectError(await mona.post(path, { emoji_name: 'other', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }), 'Invalid emoji name.');
      expectError(await mona.post(path, { emoji_name: 'party', emoji_code: '1', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.');
      expectError(await mona.post(path, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'bogus' }), 'Invalid emoji type.');
      expectError(await mona.post(path, {}), "Missing 'emoji_name' argument", 'REQUEST_VARIABLE_MISSING');
      expectSuccess(await mona.post(path, { emoji_name: 'octopus' }));
      expectError(await mona.post(path, { emoji_name: 'octopus' }), 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
      expectError(await mona.post('/messages/99999999/reactions', { emoji_name: 'octopus' }), 'Invalid message(s)');
      const secret = await send('adam', { type: 'stream', to: 'leadership', topic: 'x', content: 'secret' });
      expectError(await mona.post(`/messages/${secret}/reactions`, { emoji_name: 'octopus' }), 'Invalid message(s)');
      const res = await mona.post('/messages/abc/reactions', { emoji_name: 'octopus' }, { undocumented: true });
      assert.equal(res.status, 404);
    });

    it('a guest reacts only to messages they can read', async () => {
      const id = await inGeneral('guest');
      expectError(await ctx.as('gus').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }), 'Invalid message(s)');
      const direct = await send('mark', { type: 'direct', to: [ctx.seed.users.gus.id], content: 'hi gus' });
      expectSuccess(await ctx.as('gus').post(`/messages/${direct}/reactions`, { emoji_name: 'wave' }));
    });
  });
}
