import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /realm/profile_fields [${dialect}]`, () => {
    let ctx: TestContext;
    const ids: number[] = [];
    before(async () => {
      ctx = await setup(dialect);
      for (const name of ['A', 'B', 'C']) ids.push(expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name, field_type: 1 })).id);
    });
    after(() => ctx.close());

    const order = async () => (expectSuccess(await ctx.as('mark').get('/realm/profile_fields')).custom_fields as Array<{ id: number; order: number }>);
    const reorder = (who: 'adam' | 'mark', list: unknown) => ctx.as(who).patch('/realm/profile_fields', { order: list });

    it('puts the fields in the given order and tells everyone', async () => {
      const [a, b, c] = ids as [number, number, number];
      ctx.clearEvents();
      expectSuccess(await reorder('adam', [c, a, b]));
      assert.deepEqual((await order()).map((f) => [f.id, f.order]), [[c, 0], [a, 1], [b, 2]]);
      assert.equal(ctx.events.length, 1);
      const event = ctx.events[0]!.event as { type: string; fields: Array<{ id: number }> };
      assert.equal(event.type, 'custom_profile_fields');
      assert.deepEqual(event.fields.map((f) => f.id), [c, a, b]);
    });

    it('takes unknown ids and repeats as the reference does, but needs every field', async () => {
      const [a, b, c] = ids as [number, number, number];
      // Extra ids are ignored; a repeated id keeps its last place.
      expectSuccess(await reorder('adam', [a, b, a, c, 99999]));
      assert.deepEqual((await order()).map((f) => [f.id, f.order]), [[b, 1], [a, 2], [c, 3]]);
      expectError(await reorder('adam', [a, b]), 'Invalid order mapping.');
      expectError(await reorder('adam', 'nope'), 'order is not valid JSON');
      expectError(await reorder('adam', [a, 'b']), 'order[1] is not an integer');
      expectError(await reorder('adam', { a }), 'order is not a list');
      expectError(await ctx.as('adam').patch('/realm/profile_fields', {}), "Missing 'order' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('is for administrators only', async () => {
      const [a, b, c] = ids as [number, number, number];
      expectError(await reorder('mark', [c, b, a]), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      assert.deepEqual((await order()).map((f) => f.id), [b, a, c]);
    });
  });
}
