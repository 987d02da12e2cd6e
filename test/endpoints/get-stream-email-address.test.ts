import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /streams/{stream_id}/email_address [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers an empty address, as a server without an email gateway does', async () => {
      const body = expectSuccess(await ctx.as('mark').get(`/streams/${ctx.seed.streams.engineering.id}/email_address`));
      assert.deepEqual(body, { result: 'success', msg: '', email: '' });
    });

    it('checks access as for the stream itself', async () => {
      expectError(await ctx.as('mark').get(`/streams/${ctx.seed.streams.leadership.id}/email_address`), 'Invalid channel ID');
      expectError(await ctx.as('gus').get(`/streams/${ctx.seed.streams.general.id}/email_address`), 'Invalid channel ID');
      expectError(await ctx.as('mark').get('/streams/99999/email_address'), 'Invalid channel ID');
      expectSuccess(await ctx.as('olivia').get(`/streams/${ctx.seed.streams.leadership.id}/email_address`));
    });
  });
}
