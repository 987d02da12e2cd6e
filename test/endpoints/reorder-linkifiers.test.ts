import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /realm/linkifiers [${dialect}]`, () => {
    let ctx: TestContext;
    const ids: number[] = [];
    before(async () => {
      ctx = await setup(dialect);
      for (const name of ['A', 'B', 'C']) {
        const body = { pattern: `${name}-(?P<id>[0-9]+)`, url_template: `https://${name.toLowerCase()}.example/{id}` };
        ids.push(expectSuccess(await ctx.as('adam').post('/realm/filters', body)).id);
      }
    });
    after(() => ctx.close());

    const order = async () => (expectSuccess(await ctx.as('mark').get('/realm/linkifiers')).linkifiers as Array<{ id: number }>).map((l) => l.id);
    const reorder = (who: 'adam' | 'mark', list: unknown) => ctx.as(who).patch('/realm/linkifiers', { ordered_linkifier_ids: list });

    it('puts the linkifiers in the given order and tells everyone', async () => {
      const [a, b, c] = ids as [number, number, number];
      ctx.clearEvents();
      expectSuccess(await reorder('adam', [c, a, b]));
      assert.deepEqual(await order(), [c, a, b]);
      const event = ctx.events[0]!.event as { type: string; realm_linkifiers: Array<{ id: number }> };
      assert.equal(event.type, 'realm_linkifiers');
      assert.deepEqual(event.realm_linkifiers.map((l) => l.id), [c, a, b]);
      // New linkifiers go after the reordered ones.
      const d = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: 'D-(?P<id>[0-9]+)', url_template: 'https://d.example/{id}' })).id;
      assert.deepEqual(await order(), [c, a, b, d]);
      expectSuccess(await ctx.as('adam').delete(`/realm/filters/${d}`));
    });

    it('refuses duplicates, missing or unknown ids, and non-administrators', async () => {
      const [a, b, c] = ids as [number, number, number];
      expectError(await reorder('adam', [a, a, b, c]), 'The ordered list must not contain duplicated linkifiers');
      expectError(await reorder('adam', [a, b]), 'The ordered list must enumerate all existing linkifiers exactly once');
      expectError(await reorder('adam', [a, b, c, 99999]), 'The ordered list must enumerate all existing linkifiers exactly once');
      expectError(await reorder('adam', [a, b, 99999]), 'The ordered list must enumerate all existing linkifiers exactly once');
      expectError(await reorder('adam', 'nope'), 'ordered_linkifier_ids is not valid JSON');
      expectError(await reorder('adam', [a, 'b']), 'ordered_linkifier_ids[1] is not an integer');
      expectError(await reorder('mark', [a, b, c]), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      assert.deepEqual(await order(), [c, a, b]);
    });
  });
}
