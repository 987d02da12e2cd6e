import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const TRAC = { pattern: '#(?P<id>[0-9]{2,8})', url_template: 'https://trac.example.com/ticket/{id}' };

for (const dialect of testDialects()) {
  describe(`POST /realm/filters [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const list = async () => expectSuccess(await ctx.as('mark').get('/realm/linkifiers')).linkifiers;

    it('adds a linkifier at the end of the list and tells everyone', async () => {
      ctx.clearEvents();
      const { id } = expectSuccess(await ctx.as('adam').post('/realm/filters', TRAC));
      assert.equal(typeof id, 'number');
      const second = expectSuccess(
        await ctx.as('olivia').post('/realm/filters', { pattern: 'ZUL-(?P<id>[0-9]+)', url_template: 'https://zul.example/{id}' }),
      ).id;
      const expected = [
        { id, ...TRAC },
        { id: second, pattern: 'ZUL-(?P<id>[0-9]+)', url_template: 'https://zul.example/{id}' },
      ];
      assert.deepEqual(await list(), expected);
      const last = ctx.events[ctx.events.length - 1]!;
      assert.deepEqual(last.event, { type: 'realm_linkifiers', realm_linkifiers: expected });
      for (const name of ['mark', 'gus', 'welcomeBot'] as const) assert.ok(last.users.includes(ctx.seed.users[name].id), name);
    });

    it('refuses non-administrators', async () => {
      for (const who of ['maya', 'mark', 'gus'] as const) {
        expectError(
          await ctx.as(who).post('/realm/filters', { pattern: 'X-(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' }),
          'Must be an organization administrator',
          'UNAUTHORIZED_PRINCIPAL',
        );
      }
    });

    it('refuses an invalid regular expression', async () => {
      expectError(await ctx.as('adam').post('/realm/filters', { pattern: '(foo', url_template: 'https://x.example/' }), 'Bad regular expression: missing ): (foo');
      expectError(
        await ctx.as('adam').post('/realm/filters', { pattern: 'ZUL-(?P<id>\\d++)', url_template: 'https://x.example/{id}' }),
        'Bad regular expression: bad repetition operator: ++',
      );
      expectError(
        await ctx.as('adam').post('/realm/filters', { pattern: 'a(?=b)', url_template: 'https://x.example/' }),
        'Bad regular expression: invalid perl operator: (?=',
      );
    });

    it('refuses a template that is not RFC 6570', async () => {
      for (const url_template of ['https://x.example/{id', 'https://x.example/{id}}', 'https://x.example/{ id}', 'https://x.example/a b{id}']) {
        expectError(await ctx.as('adam').post('/realm/filters', { pattern: 'A-(?P<id>[0-9]+)', url_template }), 'Invalid URL template.');
      }
    });

    it('requires the template variables to be exactly the named groups', async () => {
      expectError(
        await ctx.as('adam').post('/realm/filters', { pattern: 'A-(?P<id>[0-9]+)', url_template: 'https://x.example/{id}/{name}' }),
        "Group 'name' in URL template is not present in linkifier pattern.",
      );
      expectError(
        await ctx.as('adam').post('/realm/filters', { pattern: '(?P<org>[a-z]+)/(?P<id>[0-9]+)', url_template: 'https://x.example/{org}' }),
        "Group 'id' in linkifier pattern is not present in URL template.",
      );
    });

    it('refuses blank values, missing arguments and a duplicate pattern', async () => {
      expectError(await ctx.as('adam').post('/realm/filters', { pattern: '', url_template: 'https://x.example/' }), 'This field cannot be blank.');
      expectError(await ctx.as('adam').post('/realm/filters', { pattern: 'B-[0-9]+', url_template: '' }), 'This field cannot be blank.');
      expectError(await ctx.as('adam').post('/realm/filters', { pattern: 'B-[0-9]+' }), "Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await ctx.as('adam').post('/realm/filters', TRAC), 'Realm filter with this Realm and Pattern already exists.');
      assert.equal((await list()).length, 2);
    });
  });
}
