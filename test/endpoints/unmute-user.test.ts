import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /users/me/muted_users/{muted_user_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('unmutes: the list shrinks, old messages stay read, new ones arrive unread', async () => {
      const { mark, mona } = ctx.seed.users;
      const old = expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [mark.id], content: 'before' })).id;
      expectSuccess(await ctx.as('mark').post(`/users/me/muted_users/${mona.id}`));
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').delete(`/users/me/muted_users/${mona.id}`));
      assert.deepEqual(ctx.events, [{ event: { type: 'muted_users', muted_users: [] }, users: [mark.id] }]);
      const flags = async (id: number) =>
        (await ctx.services.db.selectFrom('user_message').select('flags').where('user_id', '=', mark.id).where('message_id', '=', id).executeTakeFirstOrThrow()).flags;
      assert.ok((await flags(old)) & FLAG_BITS.read);
      const fresh = expectSuccess(await ctx.as('mona').post('/messages', { type: 'direct', to: [mark.id], content: 'after' })).id;
      assert.equal((await flags(fresh)) & FLAG_BITS.read, 0);
    });

    it('refuses users not muted and unknown users', async () => {
      const { mark, milo } = ctx.seed.users;
      expectError(await ctx.as('mark').delete(`/users/me/muted_users/${milo.id}`), 'User is not muted');
      expectError(await ctx.as('mark').delete(`/users/me/muted_users/${mark.id}`), 'User is not muted');
      expectError(await ctx.as('mark').delete('/users/me/muted_users/999999'), 'No such user');
    });
  });
}
