// Custom profile field events and the account changes administrators make: every event matches
// the reference schema, and an earlier register state plus the events equals a fresh one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ApiResponse, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { fetchStateOf, verifyFolding } from '../support/register-state.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`custom profile field events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const ok = (call: () => Promise<ApiResponse>) => async () => void expectSuccess(await call());

    it('register carries the fields, the types, and users\' values', async () => {
      const state = await fetchStateOf(ctx, 'mark', { wanted: ['custom_profile_fields', 'realm_user'] });
      assert.deepEqual(state.custom_profile_fields, []);
      assert.deepEqual((state.custom_profile_field_types as Record<string, unknown>).PRONOUNS, { id: 8, name: 'Pronouns' });
      const users = state.realm_users as Array<{ user_id: number; profile_data?: unknown; is_bot: boolean }>;
      assert.deepEqual(users.find((u) => u.user_id === ctx.seed.users.mona.id)!.profile_data, {});
      assert.ok(users.filter((u) => u.is_bot).every((u) => !('profile_data' in u)));
    });

    it('every external account subtype the register offers can be created, under its catalog name', async () => {
      const state = await fetchStateOf(ctx, 'adam', { wanted: ['realm'] });
      const offered = state.realm_default_external_accounts as Record<string, { name: string }>;
      assert.deepEqual(Object.keys(offered).sort(), ['github', 'twitter']);
      for (const [subtype, account] of Object.entries(offered)) {
        const id = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { field_type: 7, field_data: { subtype } })).id;
        const fields = expectSuccess(await ctx.as('adam').get('/realm/profile_fields')).custom_fields as Array<{ id: number; name: string }>;
        assert.equal(fields.find((f) => f.id === id)!.name, account.name);
        expectSuccess(await ctx.as('adam').delete(`/realm/profile_fields/${id}`, {}, undocumented));
      }
    });

    it('fields: create, update, reorder, and values set, cleared and dropped with their field', async () => {
      const watchers = ['mark', 'adam', 'gus'] as const;
      let phone = 0;
      let color = 0;
      const kinds = await verifyFolding(ctx, {
        watchers: [...watchers],
        action: async () => {
          phone = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Phone', field_type: 1 })).id;
          const choices = { r: { text: 'Red', order: '1' }, b: { text: 'Blue', order: '2' } };
          color = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', { name: 'Color', field_type: 3, field_data: choices })).id;
        },
      });
      assert.deepEqual(kinds, ['custom_profile_fields', 'custom_profile_fields']);
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').patch('/realm/profile_fields', { order: [color, phone] })) });
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').patch(`/realm/profile_fields/${phone}`, { hint: 'Mobile' }, undocumented)) });
      const values = [{ id: phone, value: '**555**' }, { id: color, value: 'r' }];
      const set = await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('mark').patch('/users/me/profile_data', { data: values }, undocumented)) });
      assert.deepEqual(set, ['realm_user/update', 'realm_user/update']);
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('mona').patch('/users/me/profile_data', { data: [{ id: color, value: 'b' }] }, undocumented)) });
      // Removing the chosen option clears the value.
      const next = { b: { text: 'Blue', order: '1' } };
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').patch(`/realm/profile_fields/${color}`, { field_data: next }, undocumented)) });
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('mark').delete('/users/me/profile_data', { data: [phone] }, undocumented)) });
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').patch(`/users/${ctx.seed.users.mark.id}`, { profile_data: [{ id: phone, value: 'x' }] })) });
      // Deleting a field takes everyone's values with it, with no event per user.
      const kindsAfterDelete = await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').delete(`/realm/profile_fields/${color}`, {}, undocumented)) });
      assert.deepEqual(kindsAfterDelete, ['custom_profile_fields']);
    });

    it('administrators renaming users and changing roles', async () => {
      // The user whose role changes is not watched: their own abilities (can_create_streams and
      // the like) are not recomputed by folding.
      const watchers = ['adam', 'mark', 'gus'] as const;
      const milo = ctx.seed.users.milo.id;
      await verifyFolding(ctx, { watchers: [...watchers, 'milo'], action: ok(() => ctx.as('adam').patch(`/users/${milo}`, { full_name: 'Milo Renamed' })) });
      const kinds = await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').patch(`/users/${milo}`, { role: 300 })) });
      assert.deepEqual(kinds, ['realm_user/update', 'user_group/remove_members', 'user_group/add_members', 'user_group/remove_members']);
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').patch(`/users/${milo}`, { role: 600 })) });
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').patch(`/users/${milo}`, { role: 400 })) });
      // A bot renamed: its owner and the administrators also hear through realm_bot.
      const bot = ctx.seed.users.welcomeBot.id;
      const botKinds = await verifyFolding(ctx, { watchers: ['adam', 'mark'], action: ok(() => ctx.as('adam').patch(`/users/${bot}`, { full_name: 'Greeter Bot' })) });
      assert.deepEqual(botKinds, ['realm_user/update', 'realm_bot/update']);
    });
  });
}
