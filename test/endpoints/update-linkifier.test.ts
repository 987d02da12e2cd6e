import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`PATCH /realm/filters/{filter_id} [${dialect}]`, () => {
    let ctx: TestContext;
    let first: number;
    let second: number;
    before(async () => {
      ctx = await setup(dialect);
      first = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://a.example/{id}' })).id;
      second = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: 'B-(?P<id>[0-9]+)', url_template: 'https://b.example/{id}' })).id;
    });
    after(() => ctx.close());

    const list = async () => expectSuccess(await ctx.as('mark').get('/realm/linkifiers')).linkifiers;

    it('changes pattern and template in place and tells everyone', async () => {
      ctx.clearEvents();
      expectSuccess(await ctx.as('adam').patch(`/realm/filters/${first}`, { pattern: 'T(?P<num>[0-9]+)', url_template: 'https://t.example/{num}' }));
      const expected = [
        { id: first, pattern: 'T(?P<num>[0-9]+)', url_template: 'https://t.example/{num}' },
        { id: second, pattern: 'B-(?P<id>[0-9]+)', url_template: 'https://b.example/{id}' },
      ];
      assert.deepEqual(await list(), expected);
      assert.deepEqual(ctx.events.map((d) => d.event), [{ type: 'realm_linkifiers', realm_linkifiers: expected }]);
      // Keeping its own pattern is not a duplicate.
      expectSuccess(await ctx.as('adam').patch(`/realm/filters/${first}`, { pattern: 'T(?P<num>[0-9]+)', url_template: 'https://t2.example/{num}' }));
    });

    it('applies the creation rules', async () => {
      const patch = (params: Record<string, string>) => ctx.as('adam').patch(`/realm/filters/${first}`, params);
      expectError(await patch({ pattern: '[a-', url_template: 'https://x.example/' }), 'Bad regular expression: missing ]: [a-');
      expectError(await patch({ pattern: 'T(?P<num>[0-9]+)', url_template: 'https://x.example/{num' }), 'Invalid URL template.');
      expectError(
        await patch({ pattern: 'T(?P<num>[0-9]+)', url_template: 'https://x.example/{id}' }),
        "Group 'id' in URL template is not present in linkifier pattern.",
      );
      expectError(await patch({ pattern: 'T(?P<num>[0-9]+)', url_template: 'https://x.example/' }), "Group 'num' in linkifier pattern is not present in URL template.");
      expectError(await patch({ pattern: 'B-(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' }), 'Realm filter with this Realm and Pattern already exists.');
      expectError(await patch({ pattern: 'T(?P<num>[0-9]+)' }), "Missing 'url_template' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('refuses non-administrators and unknown ids', async () => {
      expectError(
        await ctx.as('maya').patch(`/realm/filters/${first}`, { pattern: 'Q(?P<n>[0-9]+)', url_template: 'https://q.example/{n}' }),
        'Must be an organization administrator',
        'UNAUTHORIZED_PRINCIPAL',
      );
      expectError(
        await ctx.as('adam').patch('/realm/filters/999999', { pattern: 'Q(?P<n>[0-9]+)', url_template: 'https://q.example/{n}' }),
        'Linkifier not found.',
      );
      assert.equal((await list())[0].pattern, 'T(?P<num>[0-9]+)');
    });
  });
}
