import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { normalizeNarrow } from '../../src/lib/narrow/parse.js';
import { buildNarrowPredicate } from '../../src/lib/narrow/predicate.js';
import { type NarrowTerm, topicKey } from '../../src/lib/narrow/types.js';
import { loadTopicState, resolveNarrow } from '../../src/queries/narrow/resolve.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { MessageFixtures } from '../support/message-fixtures.js';

for (const dialect of testDialects()) {
  describe(`resolveNarrow [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const resolve = (terms: Array<[string, NarrowTerm['operand'], boolean?]>, viewer: DevUserName = 'mark') =>
      resolveNarrow(
        ctx.services.db,
        ctx.seed.realm,
        ctx.seed.users[viewer],
        normalizeNarrow(terms.map(([operator, operand, negated]) => ({ operator, operand, negated: negated ?? false }))),
      );

    it('searches shared history only through a readable, non-negated stream term without is: terms', async () => {
      const cases: Array<[Array<[string, NarrowTerm['operand'], boolean?]>, DevUserName, boolean]> = [
        [[], 'mark', false],
        [[['channel', 'general']], 'mark', true],
        [[['channel', 'design']], 'mark', true],
        [[['channel', 'design']], 'gus', false],
        [[['channel', 'leadership']], 'mark', false],
        [[['channel', 'leadership']], 'olivia', true],
        [[['channel', 'general', true]], 'mark', false],
        [[['channels', 'public']], 'mark', true],
        [[['channels', 'public']], 'gus', false],
        [[['channels', 'web-public']], 'mark', false],
        [[['channel', 'general'], ['is', 'unread']], 'mark', false],
        [[['channel', 'general'], ['is', 'resolved']], 'mark', true],
        [[['channel', 'general'], ['channel', 'leadership']], 'mark', false],
        [[['channel', 'leadership'], ['channels', 'public']], 'mark', true],
      ];
      for (const [terms, viewer, expected] of cases) {
        assert.equal((await resolve(terms, viewer)).includeHistory, expected, `${JSON.stringify(terms)} as ${viewer}`);
      }
    });

    it('scopes first_unread muting to the first stream term', async () => {
      const { general, design } = ctx.seed.streams;
      assert.equal((await resolve([['channel', 'design', true], ['channel', 'general']])).scopeStreamId, design.id);
      assert.equal((await resolve([['stream', general.id]])).scopeStreamId, general.id);
      assert.equal((await resolve([['topic', 'x']])).scopeStreamId, null);
    });

    it('combines the non-negated search terms and keeps negated ones apart', async () => {
      const narrow = await resolve([['search', 'alpha'], ['search', 'beta gamma'], ['search', 'delta', true]]);
      assert.deepEqual(narrow.highlight?.words, ['alpha', 'beta', 'gamma']);
      assert.deepEqual(
        narrow.conditions.map((c) => (c.kind === 'search' ? [c.query.words, c.negated] : c.kind)),
        [[['delta'], true], [['alpha', 'beta', 'gamma'], false]],
      );
    });

    it('says when the predicate needs topic state, and refuses to run without it', async () => {
      const narrow = await resolve([['is', 'followed']]);
      assert.equal(narrow.needsTopicState, true);
      assert.throws(() => buildNarrowPredicate(narrow));
      assert.equal((await resolve([['is', 'starred']])).needsTopicState, false);
    });

    it('loads muted streams and topic policies, topics folded', async () => {
      const f = new MessageFixtures(ctx);
      await f.muteStream('mark', 'engineering');
      await f.topicPolicy('mark', 'general', 'Lunch Plans', 3);
      const state = await loadTopicState(ctx.services.db, ctx.seed.users.mark.id);
      assert.deepEqual([...state.mutedStreamRecipientIds], [ctx.seed.streams.engineering.recipient_id]);
      assert.equal(state.policies.get(topicKey(ctx.seed.streams.general.recipient_id!, 'LUNCH plans')), 3);
    });

    it('keeps one visibility row per user, stream and case-folded topic', async () => {
      const f = new MessageFixtures(ctx);
      await f.topicPolicy('mona', 'general', 'Release', 1);
      await assert.rejects(() => f.topicPolicy('mona', 'general', 'release', 2));
      await f.topicPolicy('milo', 'general', 'release', 2);
    });
  });
}
