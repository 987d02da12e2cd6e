import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /streams/{stream_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('returns a public stream to members', async () => {
      const { engineering } = ctx.seed.streams;
      const body = expectSuccess(await ctx.as('mona').get(`/streams/${engineering.id}`));
      assert.equal(body.stream.stream_id, engineering.id);
      assert.equal(body.stream.name, 'engineering');
      assert.equal(body.stream.description, 'Building **Confab**.');
      assert.equal(body.stream.rendered_description, engineering.rendered_description);
      assert.equal(body.stream.invite_only, false);
      assert.equal(body.stream.stream_weekly_traffic, null);
    });

    it('returns a private stream to subscribers and administrators only', async () => {
      const { leadership } = ctx.seed.streams;
      assert.equal(expectSuccess(await ctx.as('olivia').get(`/streams/${leadership.id}`)).stream.invite_only, true);
      await ctx.services.db.updateTable('user_profile').set({ role: 200 }).where('id', '=', ctx.seed.users.mona.id).execute();
      expectSuccess(await ctx.as('mona').get(`/streams/${leadership.id}`));
      await ctx.services.db.updateTable('user_profile').set({ role: 400 }).where('id', '=', ctx.seed.users.mona.id).execute();
      expectError(await ctx.as('mark').get(`/streams/${leadership.id}`), 'Invalid channel ID');
      expectError(await ctx.as('maya').get(`/streams/${leadership.id}`), 'Invalid channel ID');
    });

    it('hides public streams from guests who are not on them', async () => {
      expectError(await ctx.as('gus').get(`/streams/${ctx.seed.streams.general.id}`), 'Invalid channel ID');
    });

    it('answers "Invalid channel ID" for unknown and archived streams', async () => {
      expectError(await ctx.as('mark').get('/streams/99999'), 'Invalid channel ID');
      const { design } = ctx.seed.streams;
      await ctx.services.db.updateTable('stream').set({ deactivated: 1 }).where('id', '=', design.id).execute();
      expectError(await ctx.as('mona').get(`/streams/${design.id}`), 'Invalid channel ID');
      await ctx.services.db.updateTable('stream').set({ deactivated: 0 }).where('id', '=', design.id).execute();
    });
  });
}
