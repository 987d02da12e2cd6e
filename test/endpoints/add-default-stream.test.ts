import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateStream } from '../../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../../src/actions/subscriptions.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /default_streams [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const defaults = async () =>
      (await ctx.services.db.selectFrom('default_stream').select('stream_id').orderBy('stream_id').execute()).map((r) => r.stream_id);

    it('adds a default stream and tells everyone but guests', async () => {
      const { engineering, general } = ctx.seed.streams;
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').post('/default_streams', { stream_id: engineering.id }));
      const ids = [general.id, engineering.id].sort((a, b) => a - b);
      assert.deepEqual(await defaults(), ids);
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'default_streams', default_streams: ids }]);
      assert.equal(ctx.events[0]!.users.includes(ctx.seed.users.gus.id), false);
      assert.equal(ctx.events[0]!.users.includes(ctx.seed.users.mark.id), true);
      // Already default: nothing to do.
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').post('/default_streams', { stream_id: engineering.id }));
      assert.deepEqual(ctx.events, []);
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['default_streams'] }));
      assert.deepEqual(state.realm_default_streams, ids);
      const guest = expectSuccess(await ctx.as('gus').post('/register', { fetch_event_types: ['default_streams'] }));
      assert.deepEqual(guest.realm_default_streams, []);
    });

    it('refuses private streams, unknown streams and non-administrators', async () => {
      const { leadership, design } = ctx.seed.streams;
      expectError(await ctx.as('adam').post('/default_streams', { stream_id: leadership.id }), 'Private channels cannot be made default.');
      expectError(await ctx.as('adam').post('/default_streams', { stream_id: 99999 }), 'Invalid channel ID');
      expectError(await ctx.as('mark').post('/default_streams', { stream_id: design.id }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await ctx.as('maya').post('/default_streams', { stream_id: design.id }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await ctx.as('adam').post('/default_streams', {}), "Missing 'stream_id' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await ctx.as('adam').post('/default_streams', { stream_id: 'x' }), 'stream_id is not valid JSON');
      // A private stream the administrator is not on cannot be named at all.
      const secret = await runSystemAction(ctx.services, async (sys) => {
        const stream = await doCreateStream(sys, ctx.seed.realm, { name: 'secret', inviteOnly: true });
        await bulkAddSubscriptions(sys, ctx.seed.realm, [stream], [ctx.seed.users.mark]);
        return stream;
      });
      expectError(await ctx.as('adam').post('/default_streams', { stream_id: secret.id }), 'Invalid channel ID');
      assert.equal((await defaults()).includes(design.id), false);
    });
  });
}
