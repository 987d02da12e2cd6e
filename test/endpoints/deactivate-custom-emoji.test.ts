// DELETE /realm/emoji/{emoji_name}: administrators or the emoji's author deactivate it; it stays
// listed (deactivated: true) and its image stays served, for the messages that show it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, pngImage, postMultipart } from '../support/images.js';

for (const dialect of testDialects()) {
  describe(`DELETE /realm/emoji/{emoji_name} [${dialect}]`, () => {
    let ctx: TestContext;
    let png: Buffer;
    before(async () => {
      ctx = await setup(dialect);
      png = await pngImage(64, 64);
    });
    after(() => ctx.close());

    const add = async (name: 'mark' | 'mona' | 'adam', emoji: string) => expectSuccess(await postMultipart(ctx, name, `/realm/emoji/${emoji}`, [filePart(png)]));
    const all = async () => Object.values(expectSuccess(await ctx.as('mona').get('/realm/emoji')).emoji as Record<string, any>);

    it('deactivates an emoji its author added; it stays listed and served', async () => {
      await add('mark', 'wave-hello');
      const [before] = (await all()).filter((e) => e.name === 'wave-hello');
      expectSuccess(await ctx.as('mark').delete('/realm/emoji/wave-hello'));
      const [after] = (await all()).filter((e) => e.name === 'wave-hello');
      assert.deepEqual(after, { ...before, deactivated: true });
      assert.equal((await ctx.app.inject({ method: 'GET', url: after.source_url })).statusCode, 200);
      // Deactivated twice is not found.
      expectError(await ctx.as('mark').delete('/realm/emoji/wave-hello'), "Emoji 'wave-hello' does not exist", 'BAD_REQUEST', 404);
    });

    it('the permission matrix: author and administrators yes; other members, moderators and guests no', async () => {
      await add('mona', 'monas');
      for (const name of ['mark', 'maya', 'gus'] as const) {
        expectError(await ctx.as(name).delete('/realm/emoji/monas'), 'Must be an organization administrator or emoji author');
      }
      expectSuccess(await ctx.as('adam').delete('/realm/emoji/monas'));
      await add('mona', 'monas2');
      expectSuccess(await ctx.as('olivia').delete('/realm/emoji/monas2'));
    });

    it('answers 404 for names that never existed, built-in names included, and for another organization\'s', async () => {
      expectError(await ctx.as('adam').delete('/realm/emoji/nope'), "Emoji 'nope' does not exist", 'BAD_REQUEST', 404);
      expectError(await ctx.as('adam').delete('/realm/emoji/smile'), "Emoji 'smile' does not exist", 'BAD_REQUEST', 404);
      // A NUL (which PostgreSQL cannot store) names no emoji, on either store.
      expectError(await ctx.as('adam').delete('/realm/emoji/%00'), "Emoji '\u0000' does not exist", 'BAD_REQUEST', 404);
      await ctx.services.db
        .insertInto('realm_emoji')
        .values({ realm_id: ctx.seed.realm.id + 1000, author_id: null, name: 'elsewhere', file_name: '0123456789abcdef.png', still_file_name: null, deactivated: 0, date_created: 0 })
        .execute();
      expectError(await ctx.as('adam').delete('/realm/emoji/elsewhere'), "Emoji 'elsewhere' does not exist", 'BAD_REQUEST', 404);
    });

    it('a new emoji may take a deactivated one\'s name; both stay listed', async () => {
      await add('mark', 'reborn');
      expectSuccess(await ctx.as('mark').delete('/realm/emoji/reborn'));
      await add('mark', 'reborn');
      const named = (await all()).filter((e) => e.name === 'reborn');
      assert.deepEqual(named.map((e) => e.deactivated).sort(), [false, true]);
    });
  });
}
