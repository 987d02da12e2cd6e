// Sending and previewing messages with emoji: :name: by Zulip's table, emoticons by the sender's
// translate_emoticons setting, and coloured code blocks stored in rendered_content.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';
const like = '<span aria-label="like" class="emoji emoji-1f44d" role="img" title="like">:like:</span>';

for (const dialect of testDialects()) {
  describe(`sending messages with emoji and code [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const send = async (who: 'mark' | 'mona', content: string): Promise<number> =>
      expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to: 'general', topic: 'emoji', content })).id;
    const rendered = async (id: number) =>
      (await ctx.services.db.selectFrom('message').select('rendered_content').where('id', '=', id).executeTakeFirstOrThrow()).rendered_content;

    it("renders Zulip's names, aliases included", async () => {
      assert.equal(await rendered(await send('mark', ':smile: :like: :thumbsup:')), `<p>${smile} ${like} :thumbsup:</p>`);
    });

    it("turns emoticons into emoji for a sender who asked for it, and only for them", async () => {
      expectSuccess(await ctx.as('mona').patch('/settings', { translate_emoticons: true }));
      assert.equal(await rendered(await send('mona', 'thanks :)')), `<p>thanks ${smile}</p>`);
      assert.equal(await rendered(await send('mark', 'thanks :)')), '<p>thanks :)</p>');
      const preview = expectSuccess(await ctx.as('mona').post('/messages/render', { content: 'ok :)' }));
      assert.equal(preview.rendered, `<p>ok ${smile}</p>`);
      expectSuccess(await ctx.as('mona').patch('/settings', { translate_emoticons: false }));
      assert.equal(await rendered(await send('mona', 'thanks :)')), '<p>thanks :)</p>');
    });

    it('stores coloured code blocks', async () => {
      const id = await send('mark', '```python\nx = 1\n```');
      assert.equal(
        await rendered(id),
        '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
      );
    });
  });
}
