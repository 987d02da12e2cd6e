// Work an action leaves for after its commit runs then, and never when the action fails.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { setup, type TestContext } from '../support/context.js';

describe('actions: work after commit', () => {
  let ctx: TestContext;
  before(async () => (ctx = await setup('sqlite')));
  after(() => ctx.close());

  it('runs once the transaction has committed, and sees what it wrote', async () => {
    const seen: string[] = [];
    await runSystemAction(ctx.services, async (action) => {
      await action.tx.updateTable('realm').set({ description: 'after commit' }).where('id', '=', ctx.seed.realm.id).execute();
      action.events.afterCommit(() => seen.push('ran'));
      assert.deepEqual(seen, []);
    });
    assert.deepEqual(seen, ['ran']);
    const row = await ctx.services.db.selectFrom('realm').select('description').where('id', '=', ctx.seed.realm.id).executeTakeFirstOrThrow();
    assert.equal(row.description, 'after commit');
  });

  it('does not run when the action fails', async () => {
    const seen: string[] = [];
    await assert.rejects(
      runSystemAction(ctx.services, async (action) => {
        action.events.afterCommit(() => seen.push('ran'));
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.deepEqual(seen, []);
  });
});
