import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`DELETE /users/me/alert_words [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('removes words case-insensitively, ignores unknown ones, returns and announces the list', async () => {
      const { mark } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/alert_words', { alert_words: ['Deploy', 'Café', 'outage'] }));
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mark').delete('/users/me/alert_words', { alert_words: ['DEPLOY', 'CAFÉ', 'never-added'] }));
      assert.deepEqual(body.alert_words, ['outage']);
      assert.deepEqual(ctx.events, [{ event: { type: 'alert_words', alert_words: ['outage'] }, users: [mark.id] }]);
    });

    it('stops flagging a removed word', async () => {
      expectSuccess(await ctx.as('mark').delete('/users/me/alert_words', { alert_words: ['outage'] }));
      ctx.clearEvents();
      expectSuccess(await ctx.as('olivia').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'outage!' }));
      const event = ctx.events.find((d) => d.users.includes(ctx.seed.users.mark.id))!;
      assert.deepEqual(event.event.flags, []);
    });

    it('checks the list', async () => {
      expectError(await ctx.as('mark').delete('/users/me/alert_words', { alert_words: [3] }), 'alert_words[0] is not a string');
      expectError(await ctx.as('mark').delete('/users/me/alert_words', {}), "Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
