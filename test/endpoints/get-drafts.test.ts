import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteAllDrafts } from '../../src/actions/drafts.js';
import { runSystemAction } from '../../src/actions/context.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /drafts [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('lists only the user own drafts, oldest edit first', async () => {
      const later = { type: '', to: [], topic: '', content: 'later', timestamp: 2_000 };
      const earlier = { type: '', to: [], topic: '', content: 'earlier', timestamp: 1_000 };
      const [laterId, earlierId] = expectSuccess(await ctx.as('mark').post('/drafts', { drafts: [later, earlier] })).ids;
      expectSuccess(await ctx.as('mona').post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'mona' }] }));
      const body = expectSuccess(await ctx.as('mark').get('/drafts'));
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        count: 2,
        drafts: [
          { id: earlierId, ...earlier },
          { id: laterId, ...later },
        ],
      });
    });

    it('is empty for a user without drafts', async () => {
      const body = expectSuccess(await ctx.as('milo').get('/drafts'));
      assert.deepEqual([body.count, body.drafts], [0, []]);
    });

    it('refuses users who turned draft synchronization off, whose drafts are gone', async () => {
      const { mark } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ settings: '{"enable_drafts_synchronization":false}' }).where('id', '=', mark.id).execute();
      ctx.clearEvents();
      await runSystemAction(ctx.services, (sys) => deleteAllDrafts(sys, mark.id));
      assert.deepEqual(ctx.events, [], 'dropping the drafts sends no event');
      expectError(await ctx.as('mark').get('/drafts'), 'User has disabled synchronizing drafts.');
      const left = await ctx.services.db.selectFrom('draft').select('user_id').execute();
      assert.deepEqual(left.map((r) => r.user_id), [ctx.seed.users.mona.id]);
    });
  });
}
