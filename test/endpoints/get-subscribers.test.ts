import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /streams/{stream_id}/members [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const ids = (...names: Array<keyof TestContext['seed']['users']>) => names.map((n) => ctx.seed.users[n].id).sort((a, b) => a - b);

    it('lists the active subscribers of a public stream by id', async () => {
      const body = expectSuccess(await ctx.as('mona').get(`/streams/${ctx.seed.streams.engineering.id}/members`));
      assert.deepEqual(body.subscribers, ids('olivia', 'adam', 'mark', 'milo'));
    });

    it('shows private stream subscribers to subscribers and administrators', async () => {
      const { leadership } = ctx.seed.streams;
      assert.deepEqual(expectSuccess(await ctx.as('olivia').get(`/streams/${leadership.id}/members`)).subscribers, ids('olivia', 'adam'));
      await ctx.services.db.updateTable('user_profile').set({ role: 200 }).where('id', '=', ctx.seed.users.milo.id).execute();
      assert.deepEqual(expectSuccess(await ctx.as('milo').get(`/streams/${leadership.id}/members`)).subscribers, ids('olivia', 'adam'));
      await ctx.services.db.updateTable('user_profile').set({ role: 400 }).where('id', '=', ctx.seed.users.milo.id).execute();
      expectError(await ctx.as('mark').get(`/streams/${leadership.id}/members`), 'Invalid channel ID');
    });

    it('refuses guests on streams they are not on, and unknown streams', async () => {
      expectError(await ctx.as('gus').get(`/streams/${ctx.seed.streams.general.id}/members`), 'Invalid channel ID');
      expectError(await ctx.as('mark').get('/streams/424242/members'), 'Invalid channel ID');
    });

    it('leaves out deactivated users', async () => {
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
      const body = expectSuccess(await ctx.as('mona').get(`/streams/${ctx.seed.streams.design.id}/members`));
      assert.deepEqual(body.subscribers, ids('maya', 'mona'));
    });
  });
}
