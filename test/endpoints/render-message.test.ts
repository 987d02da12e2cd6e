import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /messages/render [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('renders Markdown to HTML', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/messages/render', { content: '**foo**' }));
      assert.deepEqual(body, { result: 'success', msg: '', rendered: '<p><strong>foo</strong></p>' });
    });

    it('resolves mentions and stream links as the requester would send them', async () => {
      const { mona } = ctx.seed.users;
      const { design } = ctx.seed.streams;
      const body = expectSuccess(await ctx.as('mark').post('/messages/render', { content: '@**Mona Member** see #**design** and #**leadership**' }));
      assert.equal(
        body.rendered,
        `<p><span class="user-mention" data-user-id="${mona.id}">@Mona Member</span> see ` +
          `<a class="stream" data-stream-id="${design.id}" href="/#narrow/channel/${design.id}-design">#design</a> and #<strong>leadership</strong></p>`,
      );
    });

    it('renders an empty preview for empty content', async () => {
      assert.equal(expectSuccess(await ctx.as('mark').post('/messages/render', { content: '' })).rendered, '');
    });

    it('refuses content longer than max_message_length', async () => {
      expectSuccess(await ctx.as('mark').post('/messages/render', { content: 'x'.repeat(10000) }));
      const res = await ctx.as('mark').post('/messages/render', { content: 'x'.repeat(10001) });
      expectError(res, 'content is too long (limit: 10000 characters)', 'BAD_REQUEST');
      assert.equal(res.status, 400);
    });

    it('refuses content whose rendering would be too large', async () => {
      const content = '$$\\sqrt{\\frac{a}{b}}$$ '.repeat(430);
      expectError(await ctx.as('mark').post('/messages/render', { content }), 'Unable to render message');
    });

    it('needs content', async () => {
      expectError(await ctx.as('mark').post('/messages/render', {}), "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('stores nothing', async () => {
      const before = await ctx.services.db.selectFrom('message').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      expectSuccess(await ctx.as('mark').post('/messages/render', { content: 'hello @**all**' }));
      const afterCount = await ctx.services.db.selectFrom('message').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(afterCount.n), Number(before.n));
    });
  });
}
