import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /messages/matches_narrow [${dialect}]`, () => {
    let ctx: TestContext;
    let fox: number;
    let dog: number;
    let direct: number;
    let elsewhere: number;
    before(async () => {
      ctx = await setup(dialect);
      const mark = ctx.as('mark');
      const send = async (params: Record<string, unknown>) => expectSuccess(await mark.post('/messages', params)).id as number;
      fox = await send({ type: 'stream', to: 'engineering', topic: 'Fish & chips', content: 'The quick brown fox' });
      dog = await send({ type: 'stream', to: 'engineering', topic: 'dogs', content: 'A lazy dog' });
      direct = await send({ type: 'private', to: JSON.stringify([ctx.seed.users.milo.id]), content: 'a fox, privately' });
      elsewhere = await send({ type: 'stream', to: 'general', topic: 'foxes', content: 'no match here' });
    });
    after(() => ctx.close());

    const matches = (who: 'mark' | 'mona' | 'milo', msgIds: number[], narrow: unknown) =>
      ctx.as(who).get('/messages/matches_narrow', { msg_ids: msgIds, narrow });

    it('answers the matching messages of a search with the words highlighted', async () => {
      const body = expectSuccess(await matches('mark', [fox, dog, direct], [{ operator: 'search', operand: 'fox' }]));
      assert.deepEqual(body.messages, {
        [fox]: { match_content: '<p>The quick brown <span class="highlight">fox</span></p>', match_subject: 'Fish &amp; chips' },
        [direct]: { match_content: '<p>a <span class="highlight">fox</span>, privately</p>', match_subject: '' },
      });
    });

    it('answers the content and the escaped topic as they are outside a search', async () => {
      const body = expectSuccess(await matches('mark', [fox, dog, direct, elsewhere], [{ operator: 'channel', operand: 'engineering' }]));
      assert.deepEqual(body.messages, {
        [fox]: { match_content: '<p>The quick brown fox</p>', match_subject: 'Fish &amp; chips' },
        [dog]: { match_content: '<p>A lazy dog</p>', match_subject: 'dogs' },
      });
      const all = expectSuccess(await matches('mark', [dog, elsewhere, 999999], []));
      assert.deepEqual(Object.keys(all.messages).map(Number), [dog, elsewhere]);
    });

    it("answers only messages the requester received", async () => {
      // Mona may read engineering's history, but was not sent these messages.
      assert.deepEqual(expectSuccess(await matches('mona', [fox, dog, direct, elsewhere], [])).messages, {
        [elsewhere]: { match_content: '<p>no match here</p>', match_subject: 'foxes' },
      });
      assert.deepEqual(Object.keys(expectSuccess(await matches('milo', [fox, direct], [{ operator: 'is', operand: 'dm' }])).messages), [String(direct)]);
    });

    it('answers nothing for no ids, and checks the narrow all the same', async () => {
      assert.deepEqual(expectSuccess(await matches('mark', [], [])).messages, {});
      const res = await matches('mark', [], [{ operator: 'channel', operand: 'nowhere' }]);
      expectError(res, 'Invalid narrow operator: unknown channel nowhere', 'BAD_NARROW');
    });

    it('needs both parameters, well formed', async () => {
      const mark = ctx.as('mark');
      expectError(await mark.get('/messages/matches_narrow', { narrow: [] }), "Missing 'msg_ids' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await mark.get('/messages/matches_narrow', { msg_ids: [fox] }), "Missing 'narrow' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await mark.get('/messages/matches_narrow', { msg_ids: fox, narrow: [] }), 'msg_ids is not a list');
      expectError(await mark.get('/messages/matches_narrow', { msg_ids: ['a'], narrow: [] }), 'msg_ids[0] is not an integer');
    });
  });
}
