import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /realm/emoji [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers no custom emoji (none can be uploaded yet), to members, guests and bots alike', async () => {
      for (const name of ['mark', 'gus', 'welcomeBot'] as const) {
        assert.deepEqual(expectSuccess(await ctx.as(name).get('/realm/emoji')), { result: 'success', msg: '', emoji: {} }, name);
      }
    });

    it('matches realm_emoji of POST /register', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm_emoji'] }));
      assert.deepEqual(body.realm_emoji, expectSuccess(await ctx.as('mark').get('/realm/emoji')).emoji);
    });
  });
}
