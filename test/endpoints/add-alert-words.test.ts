import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/me/alert_words [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const add = (words: unknown) => ctx.as('mark').post('/users/me/alert_words', { alert_words: words });

    it('adds words once each, whatever their case, and returns and announces the whole list', async () => {
      const { mark } = ctx.seed.users;
      ctx.clearEvents();
      const body = expectSuccess(await add(['  Deploy ', 'outage', '', 'DEPLOY']));
      assert.deepEqual(body.alert_words, ['Deploy', 'outage']);
      assert.deepEqual(ctx.events, [{ event: { type: 'alert_words', alert_words: ['Deploy', 'outage'] }, users: [mark.id] }]);
      assert.deepEqual(expectSuccess(await add(['deploy', 'Café'])).alert_words, ['Deploy', 'outage', 'Café']);
      assert.deepEqual(expectSuccess(await add(['CAFÉ'])).alert_words, ['Deploy', 'outage', 'Café']);
    });

    it('flags messages containing a word as whole words, case-insensitively, for that recipient', async () => {
      const { mark, mona } = ctx.seed.users;
      const send = async (content: string) =>
        expectSuccess(await ctx.as('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'alerts', content })).id as number;
      const flagsOf = async (id: number) =>
        (expectSuccess(await ctx.as('mark').get(`/messages/${id}`)).message as { flags: string[] }).flags;
      ctx.clearEvents();
      const hit = await send('The DEPLOY is done.');
      const event = ctx.events.find((d) => d.event.type === 'message' && d.users.includes(mark.id))!;
      assert.deepEqual(event.event.flags, ['has_alert_word']);
      assert.equal(event.users.includes(mona.id), false, 'only the word owner is flagged');
      assert.deepEqual(await flagsOf(hit), ['has_alert_word']);
      assert.deepEqual(await flagsOf(await send('redeployment tomorrow')), []);
      assert.deepEqual(await flagsOf(await send('un café, please')), ['has_alert_word']);
      const alerted = expectSuccess(
        await ctx.as('mark').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] }),
      );
      assert.deepEqual((alerted.messages as Array<{ content: string }>).map((m) => m.content), ['<p>The DEPLOY is done.</p>', '<p>un café, please</p>']);
    });

    it('does not flag the sender own message', async () => {
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'alerts', content: 'outage again' }));
      const own = ctx.events.find((d) => d.event.type === 'message' && d.users.includes(ctx.seed.users.mark.id))!;
      assert.equal((own.event.flags as string[]).includes('has_alert_word'), false);
    });

    it('refuses words that are too long or not strings', async () => {
      expectError(await add(['x'.repeat(101)]), 'alert_words[0] is too long (limit: 100 characters)');
      expectError(await add([1]), 'alert_words[0] is not a string');
      expectError(await add('word'), 'alert_words is not valid JSON');
      expectError(await add(['a\u0000b']), 'alert_words[0] must not contain null bytes');
      expectError(await ctx.as('mark').post('/users/me/alert_words', {}), "Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
