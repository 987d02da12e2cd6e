import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /realm/playgrounds [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const add = (params: Record<string, string>, who: 'adam' | 'olivia' | 'maya' | 'mark' = 'adam') => ctx.as(who).post('/realm/playgrounds', params);

    it('adds playgrounds under either language parameter and sends both language keys', async () => {
      ctx.clearEvents();
      const first = expectSuccess(await add({ name: 'Python playground', highlighter_language: 'Python', url_template: 'https://python.example/?code={code}' })).id;
      const second = expectSuccess(
        await add({ name: ' Rust ', pygments_language: 'Rust', url_template: 'https://play.rust.example/{#code}' }, 'olivia'),
      ).id;
      assert.equal(typeof first, 'number');
      const expected = [
        { id: first, name: 'Python playground', pygments_language: 'Python', highlighter_language: 'Python', url_template: 'https://python.example/?code={code}' },
        { id: second, name: 'Rust', pygments_language: 'Rust', highlighter_language: 'Rust', url_template: 'https://play.rust.example/{#code}' },
      ];
      const last = ctx.events[ctx.events.length - 1]!;
      assert.deepEqual(last.event, { type: 'realm_playgrounds', realm_playgrounds: expected });
      assert.ok(last.users.includes(ctx.seed.users.gus.id));
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: JSON.stringify(['realm_playgrounds']) }));
      assert.deepEqual(state.realm_playgrounds, expected);
    });

    it('refuses non-administrators', async () => {
      for (const who of ['maya', 'mark'] as const) {
        expectError(
          await add({ name: 'Go', highlighter_language: 'Go', url_template: 'https://go.example/{code}' }, who),
          'Must be an organization administrator',
          'UNAUTHORIZED_PRINCIPAL',
        );
      }
    });

    it('checks the language and the template', async () => {
      const template = 'https://go.example/{code}';
      expectError(await add({ name: 'Go', highlighter_language: 'Go<script>', url_template: template }), 'Invalid characters in pygments language');
      expectError(await add({ name: 'Go', highlighter_language: 'G'.repeat(41), url_template: template }), 'Ensure this value has at most 40 characters (it has 41).');
      expectError(await add({ name: 'Go', highlighter_language: 'Go', url_template: 'https://go.example/{code' }), 'Invalid URL template.');
      expectError(await add({ name: 'Go', highlighter_language: 'Go', url_template: 'https://go.example/' }), 'Missing the required variable "code" in the URL template');
      expectError(
        await add({ name: 'Go', highlighter_language: 'Go', url_template: 'https://go.example/{code}/{version}' }),
        '"code" should be the only variable present in the URL template',
      );
    });

    it('refuses blank or missing values, both language parameters, and a duplicate', async () => {
      expectError(await add({ name: '  ', highlighter_language: 'Go', url_template: 'https://go.example/{code}' }), 'name cannot be blank');
      expectError(await add({ name: 'Go', highlighter_language: '', url_template: 'https://go.example/{code}' }), 'highlighter_language cannot be blank');
      expectError(await add({ name: 'Go', highlighter_language: 'Go' }), "Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(
        await add({ name: 'Go', highlighter_language: 'Go', pygments_language: 'Go', url_template: 'https://go.example/{code}' }),
        "Can't decide between 'highlighter_language' and 'pygments_language' arguments",
        'REQUEST_CONFUSING_VAR',
      );
      expectError(
        await add({ name: 'Python playground', highlighter_language: 'Python', url_template: 'https://other.example/{code}' }),
        'Realm playground with this Realm, Pygments language and Name already exists.',
      );
      // The same name for another language is fine.
      expectSuccess(await add({ name: 'Python playground', highlighter_language: 'Python3', url_template: 'https://other.example/{code}' }));
    });
  });
}
