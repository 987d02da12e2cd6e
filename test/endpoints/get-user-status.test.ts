import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users/{user_id}/status [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('is empty for a user who never set a status', async () => {
      const res = expectSuccess(await ctx.as('gus').get(`/users/${ctx.seed.users.mark.id}/status`));
      assert.deepEqual(res, { result: 'success', msg: '', status: {} });
    });

    it('holds only the fields that are set, for anyone in the organization', async () => {
      expectSuccess(await ctx.as('mark').post('/users/me/status', { status_text: 'lunch', emoji_name: 'car' }));
      const expected = { status_text: 'lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' };
      for (const viewer of ['mark', 'gus', 'welcomeBot'] as const) {
        assert.deepEqual(expectSuccess(await ctx.as(viewer).get(`/users/${ctx.seed.users.mark.id}/status`)).status, expected);
      }
      expectSuccess(await ctx.as('mona').post('/users/me/status', { away: true }));
      assert.deepEqual(expectSuccess(await ctx.as('mark').get(`/users/${ctx.seed.users.mona.id}/status`)).status, { away: true });
    });

    it('refuses bots, unknown and deactivated users', async () => {
      expectError(await ctx.as('mark').get(`/users/${ctx.seed.users.welcomeBot.id}/status`), 'No such user');
      expectError(await ctx.as('mark').get('/users/999999/status'), 'No such user');
      expectSuccess(await ctx.as('milo').post('/users/me/status', { status_text: 'leaving' }));
      expectSuccess(await ctx.as('olivia').delete(`/users/${ctx.seed.users.milo.id}`));
      expectError(await ctx.as('mark').get(`/users/${ctx.seed.users.milo.id}/status`), 'User is deactivated');
    });
  });
}
