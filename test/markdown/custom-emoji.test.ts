// The organization's custom emoji where people use them: :name: in messages and previews (the
// reference's <img>), reactions of type realm_emoji, and status emoji.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, pngImage, postMultipart } from '../support/images.js';

const smileSpan = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';

for (const dialect of testDialects()) {
  describe(`custom emoji in messages, reactions and statuses [${dialect}]`, () => {
    let ctx: TestContext;
    const emoji: Record<string, { id: string; source_url: string }> = {};
    before(async () => {
      ctx = await setup(dialect);
      const png = await pngImage(32, 32);
      for (const [who, name] of [['mark', 'party_parrot'], ['mark', 'gone'], ['adam', 'smile']] as const) {
        expectSuccess(await postMultipart(ctx, who, `/realm/emoji/${name}`, [filePart(png)]));
      }
      expectSuccess(await ctx.as('mark').delete('/realm/emoji/gone'));
      for (const e of Object.values(expectSuccess(await ctx.as('mark').get('/realm/emoji')).emoji as Record<string, any>)) emoji[e.name] = e;
    });
    after(() => ctx.close());

    const img = (name: string, title = name.replace(/_/g, ' ')) => `<img alt=":${name}:" class="emoji" src="${emoji[name]!.source_url}" title="${title}">`;
    const send = async (content: string) => expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: 'general', topic: 'emoji', content })).id as number;
    const rendered = async (id: number) =>
      (await ctx.services.db.selectFrom('message').select('rendered_content').where('id', '=', id).executeTakeFirstOrThrow()).rendered_content;

    it('renders an active custom emoji as the reference image, over a built-in of the same name', async () => {
      assert.equal(await rendered(await send('yay :party_parrot:!')), `<p>yay ${img('party_parrot', 'party parrot')}!</p>`);
      assert.equal(await rendered(await send(':smile::party_parrot:')), `<p>${img('smile')}${img('party_parrot')}</p>`);
      const preview = expectSuccess(await ctx.as('gus').post('/messages/render', { content: ':party_parrot:' }));
      assert.equal(preview.rendered, `<p>${img('party_parrot')}</p>`);
    });

    it('leaves deactivated, unknown and code-quoted names as text', async () => {
      assert.equal(await rendered(await send(':gone: :nothing: `:party_parrot:`')), '<p>:gone: :nothing: <code>:party_parrot:</code></p>');
    });

    it('falls back to the built-in emoji once the custom one is deactivated', async () => {
      expectSuccess(await ctx.as('adam').delete('/realm/emoji/smile'));
      assert.equal(await rendered(await send(':smile:')), `<p>${smileSpan}</p>`);
    });

    it('reacts with a custom emoji by name, or by id and type; removes it by name and type', async () => {
      const id = await send('react here');
      const path = `/messages/${id}/reactions`;
      expectSuccess(await ctx.as('mark').post(path, { emoji_name: 'party_parrot' }));
      expectSuccess(await ctx.as('mona').post(path, { emoji_name: 'party_parrot', emoji_code: emoji.party_parrot!.id, reaction_type: 'realm_emoji' }));
      const message = expectSuccess(await ctx.as('mark').get(`/messages/${id}`)).message;
      assert.deepEqual(
        message.reactions.map((r: any) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id]),
        [
          ['party_parrot', emoji.party_parrot!.id, 'realm_emoji', ctx.seed.users.mark.id],
          ['party_parrot', emoji.party_parrot!.id, 'realm_emoji', ctx.seed.users.mona.id],
        ],
      );
      // As in the reference, a name alone looks for a Unicode reaction: the type must be given.
      expectError(await ctx.as('mark').delete(path, { emoji_name: 'party_parrot' }), "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
      expectSuccess(await ctx.as('mark').delete(path, { emoji_name: 'party_parrot', reaction_type: 'realm_emoji' }));
      assert.equal(expectSuccess(await ctx.as('mark').get(`/messages/${id}`)).message.reactions.length, 1);
    });

    it('refuses unknown, misnamed and deactivated custom emoji with the reference errors', async () => {
      const path = `/messages/${await send('no')}/reactions`;
      expectError(await ctx.as('mark').post(path, { emoji_name: 'party_parrot', emoji_code: '999999', reaction_type: 'realm_emoji' }), 'Invalid custom emoji.');
      expectError(await ctx.as('mark').post(path, { emoji_name: 'parrot', emoji_code: emoji.party_parrot!.id, reaction_type: 'realm_emoji' }), 'Invalid custom emoji name.');
      expectError(await ctx.as('mark').post(path, { emoji_name: 'gone', emoji_code: emoji.gone!.id, reaction_type: 'realm_emoji' }), 'This custom emoji has been deactivated.');
      expectError(await ctx.as('mark').post(path, { emoji_name: 'gone' }), "Emoji 'gone' does not exist");
    });

    it('sets a custom status emoji', async () => {
      expectSuccess(await ctx.as('mark').post('/users/me/status', { emoji_name: 'party_parrot' }));
      const status = expectSuccess(await ctx.as('mark').get(`/users/${ctx.seed.users.mark.id}/status`)).status;
      assert.deepEqual(status, { emoji_name: 'party_parrot', emoji_code: emoji.party_parrot!.id, reaction_type: 'realm_emoji' });
    });
  });
}
