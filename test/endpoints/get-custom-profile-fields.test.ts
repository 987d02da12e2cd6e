import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /realm/profile_fields [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('lists nothing before any field exists', async () => {
      assert.deepEqual(expectSuccess(await ctx.as('gus').get('/realm/profile_fields')).custom_fields, []);
    });

    it('lists the fields in display order, for every member, guests included', async () => {
      const a = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'A', field_type: 1 })).id;
      const b = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'B', field_type: 4, hint: 'When' })).id;
      expectSuccess(await ctx.as('adam').patch('/realm/profile_fields', { order: [b, a] }));
      const body = expectSuccess(await ctx.as('gus').get('/realm/profile_fields'));
      assert.deepEqual(body.custom_fields, [
        { id: b, name: 'B', type: 4, hint: 'When', field_data: '', order: 0 },
        { id: a, name: 'A', type: 1, hint: '', field_data: '', order: 1 },
      ]);
    });
  });
}
