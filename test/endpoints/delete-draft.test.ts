import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /drafts/{draft_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const createOne = async () =>
      (expectSuccess(await ctx.as('mark').post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'bye' }] })).ids as number[])[0]!;

    it('deletes the draft and tells the user', async () => {
      const { mark } = ctx.seed.users;
      const id = await createOne();
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').delete(`/drafts/${id}`));
      assert.deepEqual(ctx.events, [{ event: { type: 'drafts', op: 'remove', draft_id: id }, users: [mark.id] }]);
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/drafts')).drafts, []);
      expectError(await ctx.as('mark').delete(`/drafts/${id}`), 'Draft does not exist', 'BAD_REQUEST', 404);
    });

    it("answers 404 for another user's draft and leaves it alone", async () => {
      const id = await createOne();
      expectError(await ctx.as('mona').delete(`/drafts/${id}`), 'Draft does not exist', 'BAD_REQUEST', 404);
      assert.equal((expectSuccess(await ctx.as('mark').get('/drafts')).drafts as unknown[]).length, 1);
    });

    it('refuses users who turned draft synchronization off', async () => {
      const id = await createOne();
      const { mark } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ settings: '{"enable_drafts_synchronization":false}' }).where('id', '=', mark.id).execute();
      expectError(await ctx.as('mark').delete(`/drafts/${id}`), 'User has disabled synchronizing drafts.');
    });
  });
}
