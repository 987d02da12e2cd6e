import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`PATCH /users/me/profile_data [${dialect}]`, () => {
    let ctx: TestContext;
    const f: Record<string, number> = {};
    before(async () => {
      ctx = await setup(dialect);
      const specs: Array<[string, Record<string, unknown>]> = [
        ['short', { name: 'Phone', field_type: 1 }],
        ['long', { name: 'Bio', field_type: 2 }],
        ['choice', { name: 'Editor', field_type: 3, field_data: { vim: { text: 'Vim', order: '1' } } }],
        ['date', { name: 'Birthday', field_type: 4 }],
        ['url', { name: 'Website', field_type: 5 }],
        ['user', { name: 'Mentor', field_type: 6 }],
        ['account', { field_type: 7, field_data: { subtype: 'github' } }],
        ['pronouns', { name: 'Pronouns', field_type: 8 }],
      ];
      for (const [key, params] of specs) f[key] = expectSuccess(await ctx.as('adam').post('/realm/profile_fields', params)).id;
    });
    after(() => ctx.close());

    const set = (data: unknown, who: 'mark' | 'mona' = 'mark') => ctx.as(who).patch('/users/me/profile_data', { data }, undocumented);
    const profile = async (who: 'mark' | 'mona' = 'mark') => expectSuccess(await ctx.as(who).get('/users/me')).profile_data;

    it('stores a value of every type; text is rendered and everyone hears of each change', async () => {
      const { mona } = ctx.seed.users;
      ctx.clearEvents();
      expectSuccess(
        await set([
          { id: f.short, value: '555-1234' },
          { id: f.long, value: 'I like **bold**' },
          { id: f.choice, value: 'vim' },
          { id: f.date, value: '2000-02-29' },
          { id: f.url, value: 'https://mark.example/' },
          { id: f.user, value: [mona.id] },
          { id: f.account, value: 'marky' },
          { id: f.pronouns, value: 'he/him' },
        ]),
      );
      assert.deepEqual(await profile(), {
        [f.short!]: { value: '555-1234', rendered_value: '<p>555-1234</p>' },
        [f.long!]: { value: 'I like **bold**', rendered_value: '<p>I like <strong>bold</strong></p>' },
        [f.choice!]: { value: 'vim' },
        [f.date!]: { value: '2000-02-29' },
        [f.url!]: { value: 'https://mark.example/' },
        [f.user!]: { value: `[${mona.id}]` },
        [f.account!]: { value: 'marky' },
        [f.pronouns!]: { value: 'he/him' },
      });
      const mark = ctx.seed.users.mark.id;
      assert.equal(ctx.events.length, 8);
      assert.deepEqual(ctx.events[0]!.event, {
        type: 'realm_user',
        op: 'update',
        person: { user_id: mark, custom_profile_field: { id: f.short, value: '555-1234', rendered_value: '<p>555-1234</p>' } },
      });
      assert.deepEqual(ctx.events[5]!.event.person, { user_id: mark, custom_profile_field: { id: f.user, value: `[${mona.id}]` } });
      assert.ok(ctx.events[0]!.users.includes(ctx.seed.users.gus.id));
      // The same values again change nothing and say nothing.
      ctx.clearEvents();
      expectSuccess(await set([{ id: f.short, value: '555-1234' }]));
      assert.equal(ctx.events.length, 0);
    });

    it('checks each value by its field type, with the field label in the text', async () => {
      const { welcomeBot, mona } = ctx.seed.users;
      expectError(await set([{ id: f.short, value: 'x'.repeat(51) }]), 'Phone is too long (limit: 50 characters)');
      expectError(await set([{ id: f.long, value: 'x'.repeat(501) }]), 'Bio is too long (limit: 500 characters)');
      expectError(await set([{ id: f.short, value: [1] }]), 'Phone is not a string');
      expectError(await set([{ id: f.choice, value: 'emacs' }]), "'emacs' is not a valid choice for 'Editor'.");
      expectError(await set([{ id: f.date, value: '2001-02-29' }]), 'Birthday is not a date');
      expectError(await set([{ id: f.date, value: '20000101' }]), 'Birthday is not a date');
      expectError(await set([{ id: f.url, value: 'not a url' }]), 'Website is not a URL');
      expectError(await set([{ id: f.url, value: 'javascript:alert(1)' }]), 'Website is not a URL');
      expectError(await set([{ id: f.user, value: 'x' }]), 'User IDs is not a list');
      expectError(await set([{ id: f.user, value: [99999] }]), 'Invalid user ID: 99999');
      expectError(await set([{ id: f.user, value: [welcomeBot.id] }]), `User with ID ${welcomeBot.id} is a bot`);
      expectError(await set([{ id: f.account, value: 'a'.repeat(51) }]), 'GitHub username is too long (limit: 50 characters)');
      expectError(await set([{ id: 99999, value: 'x' }]), 'Field id 99999 not found.');
      // A refused entry leaves the earlier ones of the same request unstored.
      expectError(await set([{ id: f.pronouns, value: 'they/them' }, { id: f.date, value: 'soon' }]), 'Birthday is not a date');
      assert.deepEqual((await profile())[f.pronouns!], { value: 'he/him' });
      expectSuccess(await ctx.as('adam').delete(`/users/${mona.id}`));
      expectError(await set([{ id: f.user, value: [mona.id] }]), `User with ID ${mona.id} is deactivated`);
      expectSuccess(await ctx.as('adam').post(`/users/${mona.id}/reactivate`));
    });

    it('checks the shape of data', async () => {
      expectError(await set('nope'), 'data is not valid JSON');
      expectError(await set({ id: 1 }), 'data is not a list');
      expectError(await set([1]), 'data[0] is not a dict');
      expectError(await set([{ value: 'x' }]), 'id key is missing from data[0]');
      expectError(await set([{ id: f.short }]), 'value key is missing from data[0]');
      expectError(await set([{ id: 'a', value: 'x' }]), 'data[0]["id"] is not an integer');
      expectError(await set([{ id: f.short, value: null }]), 'data[0]["value"] is not an allowed_type');
      expectError(await set([{ id: f.short, value: ['a'] }]), 'data[0]["value"] is not an allowed_type');
      expectError(await set([{ id: f.short, value: 'x', extra: 1 }]), 'Unexpected arguments: extra');
      expectError(await ctx.as('mark').patch('/users/me/profile_data', {}, undocumented), "Missing 'data' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('refuses bots', async () => {
      const bot = ctx.seed.users.welcomeBot;
      const client = new ApiClient(ctx.app, ApiClient.basic(bot.delivery_email, bot.api_key));
      expectError(await client.patch('/users/me/profile_data', { data: [{ id: f.short, value: 'x' }] }, undocumented), 'This endpoint does not accept bot requests.');
    });
  });
}
