import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`PATCH /realm/profile_fields/{field_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const create = async (params: Record<string, unknown>) => expectSuccess(await ctx.as('adam').post('/realm/profile_fields', params)).id as number;
    const update = (id: number | string, params: Record<string, unknown>, who: 'adam' | 'mark' = 'adam') =>
      ctx.as(who).patch(`/realm/profile_fields/${id}`, params, undocumented);
    const field = async (id: number) =>
      (expectSuccess(await ctx.as('mark').get('/realm/profile_fields')).custom_fields as Array<Record<string, unknown>>).find((f) => f.id === id);

    it('changes label, hint and summary flag, keeping what is not sent', async () => {
      const id = await create({ name: 'Phone', hint: 'Work', field_type: 1 });
      ctx.clearEvents();
      expectSuccess(await update(id, { name: ' Mobile ', display_in_profile_summary: true }));
      assert.deepEqual(await field(id), { id, name: 'Mobile', type: 1, hint: 'Work', field_data: '', order: id, display_in_profile_summary: true });
      assert.deepEqual(ctx.events.map((d) => d.event.type), ['custom_profile_fields']);
      expectSuccess(await update(id, { hint: '', display_in_profile_summary: false }));
      assert.deepEqual(await field(id), { id, name: 'Mobile', type: 1, hint: '', field_data: '', order: id });
    });

    it('checks the changed field as creation does', async () => {
      const id = await create({ name: 'Desk', field_type: 1 });
      await create({ name: 'Taken', field_type: 1 });
      expectError(await update(id, { name: 'Taken' }), 'A field with that label already exists.');
      expectError(await update(id, { name: ' ' }), 'Label cannot be blank.');
      expectError(await update(id, { name: 'n'.repeat(41) }), 'name is too long (limit: 40 characters)');
      expectError(await update(id, { hint: 'h'.repeat(81) }), 'hint is too long (limit: 80 characters)');
      expectError(await update(99999, { name: 'X' }), 'Field id 99999 not found.');
      expectError(await update(id, { name: 'X' }, 'mark'), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      const story = await create({ name: 'Story', field_type: 2 });
      expectError(await update(story, { display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
      assert.equal((await field(id))!.name, 'Desk');
    });

    it('allows two summary fields, the field itself not counted', async () => {
      const a = await create({ name: 'Sum A', field_type: 1, display_in_profile_summary: true });
      const b = await create({ name: 'Sum B', field_type: 1, display_in_profile_summary: true });
      const c = await create({ name: 'Sum C', field_type: 1 });
      expectSuccess(await update(a, { display_in_profile_summary: true }));
      expectError(await update(c, { display_in_profile_summary: true }), 'Only 2 custom profile fields can be displayed in the profile summary.');
      for (const id of [a, b]) expectSuccess(await update(id, { display_in_profile_summary: false }));
    });

    it('drops the values of removed choices and tells everyone', async () => {
      const choices = { a: { text: 'Red', order: '1' }, b: { text: 'Blue', order: '2' } };
      const id = await create({ name: 'Color', field_type: 3, field_data: choices });
      expectSuccess(await ctx.as('mark').patch('/users/me/profile_data', { data: [{ id, value: 'a' }] }, undocumented));
      expectSuccess(await ctx.as('mona').patch('/users/me/profile_data', { data: [{ id, value: 'b' }] }, undocumented));
      ctx.clearEvents();
      const next = { b: { text: 'Blue', order: '1' }, c: { text: 'Green', order: '2' } };
      expectSuccess(await update(id, { field_data: next }));
      assert.equal((await field(id))!.field_data, JSON.stringify(next));
      const mark = ctx.seed.users.mark.id;
      assert.deepEqual(
        ctx.events.map((d) => d.event),
        [
          { type: 'realm_user', op: 'update', person: { user_id: mark, custom_profile_field: { id, value: null } } },
          { type: 'custom_profile_fields', fields: expectSuccess(await ctx.as('mark').get('/realm/profile_fields')).custom_fields },
        ],
      );
      assert.deepEqual(expectSuccess(await ctx.as('mark').get('/users/me')).profile_data[id], undefined);
      assert.deepEqual(expectSuccess(await ctx.as('mona').get('/users/me')).profile_data[id], { value: 'b' });
      expectError(await update(id, { field_data: {} }), 'Field must have at least one choice.');
    });

    it('lets a ready-made external account change only its summary flag', async () => {
      const id = await create({ field_type: 7, field_data: { subtype: 'twitter' } });
      expectSuccess(await update(id, { display_in_profile_summary: true }));
      // Sending the values it already has is fine.
      expectSuccess(await update(id, { name: 'Twitter username', hint: '', field_data: { subtype: 'twitter' }, display_in_profile_summary: false }));
      expectError(await update(id, { name: 'Tweets' }), 'Default custom field cannot be updated.');
      expectError(await update(id, { field_data: { subtype: 'github' } }), 'Default custom field cannot be updated.');
      const custom = await create({ name: 'Forge', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://forge.example/%(username)s' } });
      const next = { subtype: 'custom', url_pattern: 'https://forge.example/u/%(username)s' };
      expectSuccess(await update(custom, { field_data: next }));
      assert.equal((await field(custom))!.field_data, JSON.stringify(next));
      expectError(await update(custom, { field_data: { subtype: 'custom' } }), 'Custom external account must define URL pattern');
    });
  });
}
