import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`DELETE /realm/profile_fields/{field_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const remove = (who: 'adam' | 'mark', id: number | string) => ctx.as(who).delete(`/realm/profile_fields/${id}`, {}, undocumented);

    it("deletes the field and every user's value for it", async () => {
      const keep = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Keep', field_type: 1 })).id;
      const gone = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Gone', field_type: 1 })).id;
      const data = [{ id: keep, value: 'k' }, { id: gone, value: 'g' }];
      expectSuccess(await ctx.as('mark').patch('/users/me/profile_data', { data }, undocumented));
      ctx.clearEvents();
      expectSuccess(await remove('adam', gone));
      assert.deepEqual(ctx.events.map((d) => d.event.type), ['custom_profile_fields']);
      const fields = expectSuccess(await ctx.as('mark').get('/realm/profile_fields')).custom_fields as Array<{ id: number }>;
      assert.deepEqual(fields.map((f) => f.id), [keep]);
      const me = expectSuccess(await ctx.as('mark').get('/users/me'));
      assert.deepEqual(me.profile_data, { [keep]: { value: 'k', rendered_value: '<p>k</p>' } });
      const count = await ctx.services.db.selectFrom('custom_profile_field_value').select('id').where('field_id', '=', gone).execute();
      assert.equal(count.length, 0);
      // A new field may take the freed label.
      expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Gone', field_type: 1 }));
    });

    it('refuses unknown fields and non-administrators', async () => {
      const id = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Stays', field_type: 1 })).id;
      expectError(await remove('adam', 99999), 'Field id 99999 not found.');
      expectError(await remove('mark', id), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      const res = await remove('adam', 'abc');
      assert.equal(res.status, 404);
      const fields = expectSuccess(await ctx.as('mark').get('/realm/profile_fields')).custom_fields as Array<{ id: number }>;
      assert.ok(fields.some((f) => f.id === id));
    });
  });
}
