import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /get_stream_id [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers the id of a stream by name, in any case and with spaces around it', async () => {
      const { engineering } = ctx.seed.streams;
      assert.deepEqual(expectSuccess(await ctx.as('mona').get('/get_stream_id', { stream: 'engineering' })).stream_id, engineering.id);
      assert.deepEqual(expectSuccess(await ctx.as('mona').get('/get_stream_id', { stream: ' Engineering ' })).stream_id, engineering.id);
    });

    it('answers a private stream to its subscribers only, administrators included', async () => {
      const { leadership } = ctx.seed.streams;
      assert.equal(expectSuccess(await ctx.as('olivia').get('/get_stream_id', { stream: 'leadership' })).stream_id, leadership.id);
      expectError(await ctx.as('mark').get('/get_stream_id', { stream: 'leadership' }), "Invalid channel name 'leadership'");
      expectSuccess(await ctx.as('adam').delete('/users/me/subscriptions', { subscriptions: ['leadership'] }));
      expectError(await ctx.as('adam').get('/get_stream_id', { stream: 'leadership' }), "Invalid channel name 'leadership'");
    });

    it('refuses guests on public streams they are not on, and unknown names as sent', async () => {
      expectError(await ctx.as('gus').get('/get_stream_id', { stream: 'general' }), "Invalid channel name 'general'");
      expectError(await ctx.as('mark').get('/get_stream_id', { stream: ' nowhere ' }), "Invalid channel name ' nowhere '");
    });

    it('needs the stream parameter', async () => {
      expectError(await ctx.as('mark').get('/get_stream_id'), "Missing 'stream' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
