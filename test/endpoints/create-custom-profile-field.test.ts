import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /realm/profile_fields [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const create = (params: Record<string, unknown>, who: 'adam' | 'mark' | 'olivia' = 'adam') => ctx.as(who).post('/realm/profile_fields', params);
    const fields = async () => expectSuccess(await ctx.as('mark').get('/realm/profile_fields')).custom_fields as Array<Record<string, unknown>>;

    it('adds a field of every type at the end of the list and tells everyone', async () => {
      ctx.clearEvents();
      const phone = expectSuccess(await create({ name: '  Phone ', hint: 'Work number', field_type: 1 })).id;
      const event = ctx.events[0]!;
      assert.deepEqual(event.event, {
        type: 'custom_profile_fields',
        fields: [{ id: phone, name: 'Phone', type: 1, hint: 'Work number', field_data: '', order: phone }],
      });
      assert.ok(event.users.includes(ctx.seed.users.gus.id));
      const choices = { a: { text: 'Vim', order: '1' }, b: { text: 'Emacs', order: '2' } };
      const editor = expectSuccess(await create({ name: 'Editor', field_type: 3, field_data: choices, display_in_profile_summary: true })).id;
      const bio = expectSuccess(await create({ name: 'Bio', field_type: 2 })).id;
      const birthday = expectSuccess(await create({ name: 'Birthday', field_type: 4 })).id;
      const site = expectSuccess(await create({ name: 'Website', field_type: 5 })).id;
      const mentor = expectSuccess(await create({ name: 'Mentor', field_type: 6 })).id;
      const github = expectSuccess(await create({ field_type: 7, field_data: { subtype: 'github' } })).id;
      const custom = { subtype: 'custom', url_pattern: 'https://code.example/%(username)s' };
      const code = expectSuccess(await create({ name: 'Code host', field_type: 7, field_data: custom })).id;
      const pronouns = expectSuccess(await create({ name: 'Pronouns', field_type: 8, display_in_profile_summary: true })).id;
      const list = await fields();
      assert.deepEqual(list.map((f) => f.id), [phone, editor, bio, birthday, site, mentor, github, code, pronouns]);
      assert.deepEqual(list[1], { id: editor, name: 'Editor', type: 3, hint: '', field_data: JSON.stringify(choices), order: editor, display_in_profile_summary: true });
      // A ready-made external account takes its label from the catalog and keeps only its subtype.
      assert.deepEqual(list[6], { id: github, name: 'GitHub username', type: 7, hint: '', field_data: '{"subtype":"github"}', order: github });
      assert.equal(list[7]!.field_data, JSON.stringify(custom));
      // field_data is kept only for list and external account fields.
      assert.equal(list[2]!.field_data, '');
    });

    it('refuses a third summary field, duplicate labels and ready-made subtypes twice', async () => {
      expectError(await create({ name: 'Team', field_type: 1, display_in_profile_summary: true }), 'Only 2 custom profile fields can be displayed in the profile summary.');
      expectError(await create({ name: 'Phone', field_type: 1 }), 'A field with that label already exists.');
      expectError(await create({ field_type: 7, field_data: { subtype: 'github' } }), 'A field with that label already exists.');
    });

    it('checks labels, hints, types and summary support with the reference texts', async () => {
      expectError(await create({ name: '   ', field_type: 1 }), 'Label cannot be blank.');
      expectError(await create({ field_type: 1 }), 'Label cannot be blank.');
      expectError(await create({ name: 'x'.repeat(41), field_type: 1 }), 'name is too long (limit: 40 characters)');
      expectError(await create({ name: 'Ok', hint: 'h'.repeat(81), field_type: 1 }), 'hint is too long (limit: 80 characters)');
      expectError(await create({ name: 'Ok', field_type: 9 }), 'Invalid field type.');
      expectError(await create({ name: 'Ok', field_type: 'one' }), 'field_type is not valid JSON');
      expectError(await create({ name: 'Ok' }), "Missing 'field_type' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await create({ name: 'Ok', field_type: 1, display_in_profile_summary: 'yes' }), 'display_in_profile_summary is not valid JSON');
      expectError(await create({ name: 'Ok\u0000', field_type: 1 }), 'name contains NULL (0x00) characters.');
    });

    it('refuses summary display for long text and person fields', async () => {
      // The two summary places are taken: free one first.
      const list = await fields();
      const editor = list.find((f) => f.name === 'Editor')!.id;
      expectSuccess(await ctx.as('adam').patch(`/realm/profile_fields/${editor}`, { display_in_profile_summary: false }, { undocumented: true }));
      expectError(await create({ name: 'Story', field_type: 2, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
      expectError(await create({ name: 'Buddy', field_type: 6, display_in_profile_summary: true }), 'Field type not supported for display in profile summary.');
    });

    it('checks list choices', async () => {
      const choice = (field_data: unknown) => create({ name: 'Choice', field_type: 3, field_data });
      expectError(await choice({}), 'Field must have at least one choice.');
      expectError(await choice({ ' ': { text: 'A', order: '1' } }), "'value' cannot be blank.");
      expectError(await choice({ a: 'A' }), 'field_data is not a dict');
      expectError(await choice({ a: { order: '1' } }), 'text key is missing from field_data');
      expectError(await choice({ a: { text: ' ', order: '1' } }), 'field_data["text"] cannot be blank.');
      expectError(await choice({ a: { text: 'A', order: '1', color: 'red' } }), 'Unexpected arguments: color');
      expectError(await choice({ a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } }), 'Field must not have duplicate choices.');
      expectError(await choice({ a: { text: 1, order: '1' } }), 'field_data contains a value that is not an allowed_type');
      expectError(await choice([1]), 'field_data is not a dict');
      expectError(await choice('{'), 'field_data is not valid JSON');
    });

    it('checks external account data', async () => {
      const account = (field_data: unknown) => create({ name: 'Account', field_type: 7, field_data });
      expectError(await account({}), 'subtype key is missing from field_data');
      expectError(await account({ subtype: '' }), 'field_data["subtype"] cannot be blank.');
      expectError(await account({ subtype: 'myspace' }), 'Invalid external account type');
      expectError(await account({ subtype: 'custom' }), 'Custom external account must define URL pattern');
      expectError(await account({ subtype: 'custom', url_pattern: 'https://x.example/' }), "URL pattern must contain '%(username)s'.");
      expectError(await account({ subtype: 'custom', url_pattern: 'not a url %(username)s' }), 'field_data["url_pattern"] is not a URL');
      expectError(await account({ subtype: 'custom', url_pattern: 'https://x.example/%(username)s', x: 'y' }), 'Unexpected arguments: x');
    });

    it('is for administrators only', async () => {
      expectError(await create({ name: 'Nope', field_type: 1 }, 'mark'), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      assert.ok(!(await fields()).some((f) => f.name === 'Nope'));
    });
  });
}
