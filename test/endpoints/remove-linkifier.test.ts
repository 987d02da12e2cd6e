import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /realm/filters/{filter_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('removes a linkifier and tells everyone', async () => {
      const a = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: 'A-(?P<id>[0-9]+)', url_template: 'https://a.example/{id}' })).id;
      const b = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: 'B-(?P<id>[0-9]+)', url_template: 'https://b.example/{id}' })).id;
      expectError(await ctx.as('mark').delete(`/realm/filters/${a}`), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').delete(`/realm/filters/${a}`));
      const remaining = [{ id: b, pattern: 'B-(?P<id>[0-9]+)', url_template: 'https://b.example/{id}' }];
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/realm/linkifiers')).linkifiers, remaining);
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'realm_linkifiers', realm_linkifiers: remaining }]);
      expectError(await ctx.as('adam').delete(`/realm/filters/${a}`), 'Linkifier not found.');
      expectError(await ctx.as('adam').delete('/realm/filters/0'), 'Linkifier not found.');
    });
  });
}
