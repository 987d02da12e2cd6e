// Linkifier and playground URL templates reach clients, which expand them and follow the result:
// only templates that always give an http or https URL are taken, and rows stored before that
// rule are neither sent nor applied.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const NOT_WEB = 'URL template must start with http:// or https://';
const PATTERN = 'X-(?P<id>[0-9]+)';
/** Templates that could expand to a non-web URL, each with one variable `id`. */
const NOT_WEB_TEMPLATES = [
  'javascript:alert({id})',
  'JavaScript:alert({id})',
  'JAVASCRIPT://x.example/%0Aalert({id})',
  'data:text/html,{id}',
  'vbscript:msgbox({id})',
  'java%73cript:alert({id})',
  '%6A%61vascript:alert({id})',
  '{id}://x.example/',
  '{+id}',
  'http{id}://x.example/',
  'https:/x.example/{id}',
  'https:{id}',
  '//x.example/{id}',
  '/relative/{id}',
  'mailto:{id}@x.example',
  'ftp://x.example/{id}',
];
/** Leading blanks and control characters are not RFC 6570 at all. */
const NOT_TEMPLATES = [' javascript:alert({id})', '\tjavascript:alert({id})', '\u0000javascript:alert({id})', '\u0085https://x.example/{id}'];

for (const dialect of testDialects()) {
  describe(`URL template schemes [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const linkifiers = async () => expectSuccess(await ctx.as('mark').get('/realm/linkifiers')).linkifiers;
    const registered = async () =>
      expectSuccess(
        await ctx.as('mark').post('/register', {
          fetch_event_types: ['realm_linkifiers', 'realm_playgrounds'],
          client_capabilities: { notification_settings_null: true, linkifier_url_template: true },
        }),
      );

    it('POST /realm/filters refuses templates that are not web URLs', async () => {
      for (const url_template of NOT_WEB_TEMPLATES) {
        expectError(await ctx.as('adam').post('/realm/filters', { pattern: PATTERN, url_template }), NOT_WEB);
      }
      for (const url_template of NOT_TEMPLATES) {
        expectError(await ctx.as('adam').post('/realm/filters', { pattern: PATTERN, url_template }), 'Invalid URL template.');
      }
      // The scheme is checked before the groups, so a variable standing in for it never passes.
      expectError(await ctx.as('adam').post('/realm/filters', { pattern: PATTERN, url_template: '{scheme}://x.example/{id}' }), NOT_WEB);
      assert.deepEqual(await linkifiers(), []);
      assert.deepEqual(ctx.events.filter((d) => d.event.type === 'realm_linkifiers'), []);
    });

    it('takes http and https in any case', async () => {
      for (const [n, url_template] of ['http://x.example/{id}', 'HTTPS://x.example/{id}', 'hTtP://{id}.x.example/'].entries()) {
        const { id } = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: `W${n}-(?P<id>[0-9]+)`, url_template }));
        expectSuccess(await ctx.as('adam').delete(`/realm/filters/${id}`));
      }
    });

    it('PATCH /realm/filters/{filter_id} refuses them and keeps the linkifier as it was', async () => {
      const good = { pattern: PATTERN, url_template: 'https://x.example/{id}' };
      const { id } = expectSuccess(await ctx.as('adam').post('/realm/filters', good));
      for (const url_template of NOT_WEB_TEMPLATES) {
        expectError(await ctx.as('adam').patch(`/realm/filters/${id}`, { pattern: PATTERN, url_template }), NOT_WEB);
      }
      expectError(await ctx.as('adam').patch(`/realm/filters/${id}`, { pattern: PATTERN, url_template: ' javascript:{id}' }), 'Invalid URL template.');
      assert.deepEqual(await linkifiers(), [{ id, ...good }]);
      expectSuccess(await ctx.as('adam').delete(`/realm/filters/${id}`));
    });

    it('POST /realm/playgrounds refuses them', async () => {
      for (const template of NOT_WEB_TEMPLATES) {
        const url_template = template.replaceAll('{id}', '{code}').replaceAll('{+id}', '{+code}');
        expectError(await ctx.as('adam').post('/realm/playgrounds', { name: 'Evil', highlighter_language: 'Python', url_template }), NOT_WEB);
      }
      const add = (url_template: string) => ctx.as('adam').post('/realm/playgrounds', { name: 'Evil', highlighter_language: 'Python', url_template });
      // Playground parameters are trimmed before they are checked.
      expectError(await add(' javascript:{code}'), NOT_WEB);
      expectError(await add('\u0000javascript:{code}'), 'Invalid URL template.');
      assert.deepEqual((await registered()).realm_playgrounds, []);
    });

    it('neither sends nor applies rows stored before the rule, and lets their pattern be taken again', async () => {
      const realm_id = ctx.seed.realm.id;
      const db = ctx.services.db;
      const hidden = await db
        .insertInto('realm_filter')
        .values({ realm_id, pattern: PATTERN, url_template: 'javascript:alert({id})', order: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('realm_playground').values({ realm_id, name: 'Evil', highlighter_language: 'Python', url_template: 'javascript:{code}' }).execute();
      const kept = { pattern: 'K-(?P<id>[0-9]+)', url_template: 'https://k.example/{id}' };
      const keptId = expectSuccess(await ctx.as('adam').post('/realm/filters', kept)).id;

      assert.deepEqual(await linkifiers(), [{ id: keptId, ...kept }]);
      const state = await registered();
      assert.deepEqual(state.realm_linkifiers, [{ id: keptId, ...kept }]);
      assert.deepEqual(state.realm_playgrounds, []);
      const rendered = expectSuccess(await ctx.as('mark').post('/messages/render', { content: 'X-12 K-7' })).rendered;
      assert.equal(rendered, '<p>X-12 <a href="https://k.example/7">K-7</a></p>');
      const { id } = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'X-12', content: 'hi' }));
      const { message } = expectSuccess(await ctx.as('mark').get(`/messages/${id}`));
      assert.deepEqual(message.topic_links, []);

      // The hidden row does not hold its pattern against the administrators, who cannot see it.
      const replacement = expectSuccess(await ctx.as('adam').post('/realm/filters', { pattern: PATTERN, url_template: 'https://x.example/{id}' })).id;
      assert.deepEqual(await linkifiers(), [
        { id: keptId, ...kept },
        { id: replacement, pattern: PATTERN, url_template: 'https://x.example/{id}' },
      ]);
      assert.equal(await db.selectFrom('realm_filter').select('id').where('id', '=', hidden.id).executeTakeFirst(), undefined);
    });
  });
}
