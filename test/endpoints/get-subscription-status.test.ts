import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users/{user_id}/subscriptions/{stream_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const status = (viewer: 'mark' | 'mona' | 'gus' | 'olivia' | 'adam', userId: number, streamId: number) =>
      ctx.as(viewer).get(`/users/${userId}/subscriptions/${streamId}`);

    it("answers whether a user is subscribed to a stream the requester may read", async () => {
      const { users, streams } = ctx.seed;
      assert.deepEqual(expectSuccess(await status('mona', users.mark.id, streams.engineering.id)), { result: 'success', msg: '', is_subscribed: true });
      assert.equal(expectSuccess(await status('mona', users.mona.id, streams.engineering.id)).is_subscribed, false);
      assert.equal(expectSuccess(await status('olivia', users.adam.id, streams.leadership.id)).is_subscribed, true);
    });

    it('refuses streams whose content the requester may not read', async () => {
      const { users, streams } = ctx.seed;
      expectError(await status('mark', users.olivia.id, streams.leadership.id), 'Invalid channel ID');
      expectError(await status('gus', users.mark.id, streams.general.id), 'Invalid channel ID');
      expectError(await status('mark', users.mark.id, 424242), 'Invalid channel ID');
    });

    it('refuses unknown users, bots and deactivated users before looking at the stream', async () => {
      const { users, streams } = ctx.seed;
      expectError(await status('mark', 424242, streams.leadership.id), 'No such user');
      expectError(await status('mark', users.welcomeBot.id, streams.general.id), 'No such user');
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', users.milo.id).execute();
      expectError(await status('mark', users.milo.id, streams.general.id), 'User is deactivated');
      await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', users.milo.id).execute();
    });

    it('answers 404 for path segments that are not ids', async () => {
      const { streams } = ctx.seed;
      expectError(await ctx.as('mark').get(`/users/me/subscriptions/${streams.general.id}`, {}, { undocumented: true }), 'Not Found', 'BAD_REQUEST', 404);
    });
  });
}
