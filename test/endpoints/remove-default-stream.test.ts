import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /default_streams [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const defaults = async () =>
      (await ctx.services.db.selectFrom('default_stream').select('stream_id').execute()).map((r) => r.stream_id);

    it('removes a default stream and tells everyone but guests', async () => {
      const { general } = ctx.seed.streams;
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').delete('/default_streams', { stream_id: general.id }));
      assert.deepEqual(await defaults(), []);
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'default_streams', default_streams: [] }]);
      assert.equal(ctx.events[0]!.users.includes(ctx.seed.users.gus.id), false);
      // Not default (any more): success, nothing sent.
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').delete('/default_streams', { stream_id: general.id }));
      assert.deepEqual(ctx.events, []);
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['default_streams'] }));
      assert.deepEqual(state.realm_default_streams, []);
    });

    it('refuses unknown streams and non-administrators', async () => {
      expectError(await ctx.as('adam').delete('/default_streams', { stream_id: 99999 }), 'Invalid channel ID');
      expectError(
        await ctx.as('mark').delete('/default_streams', { stream_id: ctx.seed.streams.general.id }),
        'Must be an organization administrator',
        'UNAUTHORIZED_PRINCIPAL',
      );
      expectError(await ctx.as('adam').delete('/default_streams', {}), "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
