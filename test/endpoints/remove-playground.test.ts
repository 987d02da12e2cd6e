import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /realm/playgrounds/{playground_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('removes a playground and tells everyone', async () => {
      const id = expectSuccess(
        await ctx.as('adam').post('/realm/playgrounds', { name: 'Go', highlighter_language: 'Go', url_template: 'https://go.example/{code}' }),
      ).id;
      expectError(await ctx.as('mark').delete(`/realm/playgrounds/${id}`), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').delete(`/realm/playgrounds/${id}`));
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'realm_playgrounds', realm_playgrounds: [] }]);
      expectError(await ctx.as('adam').delete(`/realm/playgrounds/${id}`), 'Invalid playground');
    });
  });
}
