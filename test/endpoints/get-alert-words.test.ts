import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users/me/alert_words [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('lists the user own words in the order they were added', async () => {
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/users/me/alert_words')), { result: 'success', msg: '', alert_words: [] });
      expectSuccess(await ctx.as('mark').post('/users/me/alert_words', { alert_words: ['zeta', 'alpha'] }));
      expectSuccess(await ctx.as('mona').post('/users/me/alert_words', { alert_words: ['mona'] }));
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/users/me/alert_words')).alert_words, ['zeta', 'alpha']);
    });
  });
}
