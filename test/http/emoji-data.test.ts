// The emoji data clients fetch from server_emoji_data_url: public, cacheable, Zulip's table.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const PATH = '/static/generated/emoji/emoji_api.json';

for (const dialect of testDialects()) {
  describe(`GET ${PATH} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('is where /register points clients', async () => {
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
      assert.equal(new URL(state.server_emoji_data_url as string).pathname, PATH);
    });

    it("serves Zulip's names for every emoji, without credentials, with caching headers", async () => {
      const res = await ctx.app.inject({ method: 'GET', url: PATH });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'public, max-age=86400');
      assert.match(String(res.headers.etag), /^"[0-9a-f]{32}"$/);
      const body = res.json() as { code_to_names: Record<string, string[]> };
      assert.deepEqual(Object.keys(body), ['code_to_names']);
      assert.deepEqual(body.code_to_names['1f44d'], ['+1', 'thumbs_up', 'like']);
      assert.deepEqual(body.code_to_names['1f642'], ['smile']);
      assert.deepEqual(body.code_to_names['1f604'], ['big_smile']);
      assert.equal(Object.keys(body.code_to_names).length, 1847);
      assert.equal(Object.values(body.code_to_names).flat().length, 2956);
    });

    it('answers 304 to a client that already holds it, and 200 to one with a stale copy', async () => {
      const first = await ctx.app.inject({ method: 'GET', url: PATH });
      const etag = String(first.headers.etag);
      const again = await ctx.app.inject({ method: 'GET', url: PATH, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
      assert.equal(again.headers['cache-control'], 'public, max-age=86400');
      const listed = await ctx.app.inject({ method: 'GET', url: PATH, headers: { 'if-none-match': `"old", W/${etag}` } });
      assert.equal(listed.statusCode, 304);
      const stale = await ctx.app.inject({ method: 'GET', url: PATH, headers: { 'if-none-match': '"0123"' } });
      assert.equal(stale.statusCode, 200);
      assert.equal(stale.body, first.body);
    });

    it('ignores credentials, even wrong ones', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: PATH, headers: { authorization: `Basic ${Buffer.from('x@y.z:wrong').toString('base64')}` } });
      assert.equal(res.statusCode, 200);
    });
  });
}
