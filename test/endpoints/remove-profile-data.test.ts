import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`DELETE /users/me/profile_data [${dialect}]`, () => {
    let ctx: TestContext;
    let phone: number;
    let bio: number;
    before(async () => {
      ctx = await setup(dialect);
      phone = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Phone', field_type: 1 })).id;
      bio = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Bio', field_type: 2 })).id;
    });
    after(() => ctx.close());

    const remove = (data: unknown) => ctx.as('mark').delete('/users/me/profile_data', { data }, undocumented);
    const profile = async () => expectSuccess(await ctx.as('mark').get('/users/me')).profile_data;

    it('clears the values and tells everyone; a field without a value is passed over', async () => {
      expectSuccess(await ctx.as('mark').patch('/users/me/profile_data', { data: [{ id: phone, value: '1' }, { id: bio, value: 'b' }] }, undocumented));
      ctx.clearEvents();
      expectSuccess(await remove([phone]));
      assert.deepEqual(await profile(), { [bio]: { value: 'b', rendered_value: '<p>b</p>' } });
      assert.deepEqual(ctx.events.map((d) => d.event), [
        { type: 'realm_user', op: 'update', person: { user_id: ctx.seed.users.mark.id, custom_profile_field: { id: phone, value: null } } },
      ]);
      ctx.clearEvents();
      expectSuccess(await remove([phone]));
      assert.equal(ctx.events.length, 0);
    });

    it('refuses unknown fields, leaving the others of the request', async () => {
      expectError(await remove([bio, 99999]), 'Field id 99999 not found.');
      assert.deepEqual(Object.keys(await profile()), [String(bio)]);
      expectError(await remove('x'), 'data is not valid JSON');
      expectError(await remove(['a']), 'data[0] is not an integer');
      expectError(await ctx.as('mark').delete('/users/me/profile_data', {}, undocumented), "Missing 'data' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('refuses bots', async () => {
      const bot = ctx.seed.users.welcomeBot;
      const client = new ApiClient(ctx.app, ApiClient.basic(bot.delivery_email, bot.api_key));
      expectError(await client.delete('/users/me/profile_data', { data: [phone] }, undocumented), 'This endpoint does not accept bot requests.');
    });
  });
}
