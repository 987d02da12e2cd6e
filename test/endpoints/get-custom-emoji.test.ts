import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, pngImage, postMultipart } from '../support/images.js';

for (const dialect of testDialects()) {
  describe(`GET /realm/emoji [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers no custom emoji in a new organization, to members, guests and bots alike', async () => {
      for (const name of ['mark', 'gus', 'welcomeBot'] as const) {
        assert.deepEqual(expectSuccess(await ctx.as(name).get('/realm/emoji')), { result: 'success', msg: '', emoji: {} }, name);
      }
    });

    it('lists active and deactivated emoji by id, the same for everyone', async () => {
      expectSuccess(await postMultipart(ctx, 'mark', '/realm/emoji/kept', [filePart(await pngImage(10, 10))]));
      expectSuccess(await postMultipart(ctx, 'mona', '/realm/emoji/dropped', [filePart(await pngImage(10, 10))]));
      expectSuccess(await ctx.as('mona').delete('/realm/emoji/dropped'));
      const emoji = expectSuccess(await ctx.as('gus').get('/realm/emoji')).emoji as Record<string, any>;
      const rows = Object.entries(emoji).map(([key, e]) => [key === e.id, e.name, e.deactivated, e.author_id, e.still_url]);
      assert.deepEqual(rows, [
        [true, 'kept', false, ctx.seed.users.mark.id, null],
        [true, 'dropped', true, ctx.seed.users.mona.id, null],
      ]);
      assert.deepEqual(expectSuccess(await ctx.as('welcomeBot').get('/realm/emoji')).emoji, emoji);
    });

    it('matches realm_emoji of POST /register', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm_emoji'] }));
      assert.deepEqual(body.realm_emoji, expectSuccess(await ctx.as('mark').get('/realm/emoji')).emoji);
      assert.equal(Object.keys(body.realm_emoji).length, 2);
    });
  });
}
