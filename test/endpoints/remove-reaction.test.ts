import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /messages/{message_id}/reactions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const message = async (topic: string) =>
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic, content: 'react' })).id as number;
    const reactionsOf = async (id: number) =>
      (expectSuccess(await ctx.as('mark').get(`/messages/${id}`)).message.reactions as Array<Record<string, unknown>>).map((r) => [
        r.emoji_name,
        r.user_id,
      ]);

    it("removes one's own reaction by name, leaving other people's, and says so to the audience", async () => {
      const id = await message('remove');
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
      expectSuccess(await ctx.as('milo').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('mona').delete(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
      const { mona, milo } = ctx.seed.users;
      assert.deepEqual(await reactionsOf(id), [['octopus', milo.id]]);
      const events = ctx.events.filter((d) => d.event.type === 'reaction');
      assert.equal(events.length, 1);
      assert.deepEqual(events[0]!.event, {
        type: 'reaction',
        op: 'remove',
        user_id: mona.id,
        user: { user_id: mona.id, email: mona.email, full_name: mona.full_name },
        message_id: id,
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
      });
      // Everyone subscribed to general hears of it.
      const { olivia, adam, maya, mark, welcomeBot } = ctx.seed.users;
      const expected = [olivia, adam, maya, mark, mona, milo, welcomeBot].map((u) => u.id).sort((a, b) => a - b);
      assert.deepEqual([...events[0]!.users].sort((a, b) => a - b), expected);
    });

    it('removes by code alone, and by code and type for the extra emoji', async () => {
      const id = await message('by code');
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'tada' }));
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'zulip' }));
      expectSuccess(await ctx.as('mona').delete(`/messages/${id}/reactions`, { emoji_code: '1f389' }));
      expectSuccess(await ctx.as('mona').delete(`/messages/${id}/reactions`, { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
      assert.deepEqual(await reactionsOf(id), []);
    });

    it('removes a reaction stored under another name for the same code', async () => {
      const id = await message('aliases');
      expectSuccess(await ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: '+1' }));
      expectSuccess(await ctx.as('mona').delete(`/messages/${id}/reactions`, { emoji_name: 'like' }));
      assert.deepEqual(await reactionsOf(id), []);
    });

    it('refuses with the reference texts and codes', async () => {
      const id = await message('errors');
      const mona = ctx.as('mona');
      const path = `/messages/${id}/reactions`;
      expectSuccess(await ctx.as('milo').post(path, { emoji_name: 'octopus' }));
      expectError(await mona.delete(path, {}), 'At least one of the following arguments must be present: emoji_name, emoji_code');
      expectError(await mona.delete(path, { emoji_name: 'octopus' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      expectError(await mona.delete(path, { emoji_name: 'no_such_emoji' }), "Emoji 'no_such_emoji' does not exist");
      expectError(await mona.delete(path, { emoji_name: 'thumbsup' }), "Emoji 'thumbsup' does not exist");
      // The zulip emoji is not a Unicode one: the default type does not find it.
      expectSuccess(await mona.post(path, { emoji_name: 'zulip' }));
      expectError(await mona.delete(path, { emoji_code: 'zulip' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      expectError(await mona.delete(path, { emoji_code: 'zulip', reaction_type: 'bogus' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      expectError(await mona.delete('/messages/99999999/reactions', { emoji_name: 'octopus' }), 'Invalid message(s)');
      const secret = expectSuccess(await ctx.as('adam').post('/messages', { type: 'stream', to: 'leadership', topic: 'x', content: 's' })).id;
      expectError(await mona.delete(`/messages/${secret}/reactions`, { emoji_name: 'octopus' }), 'Invalid message(s)');
    });
  });
}
