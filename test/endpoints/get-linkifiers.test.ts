import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /realm/linkifiers [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('lists nothing at first, then the linkifiers in order, to anyone in the realm', async () => {
      assert.deepEqual(expectSuccess(await ctx.as('gus').get('/realm/linkifiers')).linkifiers, []);
      const id = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://a.example/{id}' })).id;
      const body = expectSuccess(await ctx.as('gus').get('/realm/linkifiers'));
      assert.deepEqual(body, { result: 'success', msg: '', linkifiers: [{ id, pattern: '#(?P<id>[0-9]+)', url_template: 'https://a.example/{id}' }] });
    });
  });
}
