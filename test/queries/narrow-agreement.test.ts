// Every narrow operator, plain and negated, through both the SQL conditions (via fetchMessages)
// and the in-memory predicate, on the same fixture: both must pick the same messages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { normalizeNarrow } from '../../src/lib/narrow/parse.js';
import { buildNarrowPredicate } from '../../src/lib/narrow/predicate.js';
import type { NarrowTerm } from '../../src/lib/narrow/types.js';
import { fetchMessages } from '../../src/queries/message-fetch.js';
import { loadTopicState, resolveNarrow } from '../../src/queries/narrow/resolve.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { MessageFixtures } from '../support/message-fixtures.js';

type Operand = NarrowTerm['operand'];
interface Case {
  terms: Array<[string, Operand]>;
  viewer?: DevUserName;
  /** The case is expected to match nothing. */
  empty?: boolean;
  /** Skip the negated variant (terms that filter nothing, or rewrite the narrow). */
  plainOnly?: boolean;
}

async function buildFixture(ctx: TestContext): Promise<MessageFixtures> {
  const f = new MessageFixtures(ctx);
  const { read, starred, mentioned, stream_wildcard_mentioned, has_alert_word, group_mentioned } = FLAG_BITS;
  await f.toStream('olivia', 'general', 'Deploy Plan', 'We are deploying the database tonight', { flags: { mark: read | starred } });
  await f.toStream('mona', 'general', 'deploy plan', 'Cats and dogs living together https://example.com', {
    hasLink: true,
    flags: { mark: mentioned },
  });
  await f.toStream('mark', 'general', '✔ Fixed bug', 'The bug is fixed');
  await f.toStream('adam', 'general', '(no topic)', 'nothing to see here', {
    flags: { mark: stream_wildcard_mentioned },
    reactions: ['mona'],
  });
  await f.toStream('maya', 'general', 'lunch', 'Who wants pizza? "Extra cheese" please', {
    hasImage: true,
    hasAttachment: true,
    flags: { mark: has_alert_word | read },
  });
  await f.toStream('milo', 'general', 'Muted Thing', 'boring talk about databases');
  await f.toStream('olivia', 'engineering', 'builds', 'The build is green', { flags: { mark: read } });
  await f.toStream('milo', 'engineering', 'Unmuted Topic', 'important build news', { flags: { mark: group_mentioned } });
  await f.toStream('adam', 'engineering', 'followed one', 'deploying again');
  await f.toStream('mark', 'engineering', 'builds', 'my own message about cats');
  await f.toStream('maya', 'design', 'colors', 'Deploying new colors', { reactions: ['milo'] });
  await f.toStream('mona', 'design', 'fonts', 'serif or sans');
  await f.toStream('olivia', 'leadership', 'secret', 'deploying the budget');
  await f.direct('mark', ['mona'], 'hi mona, a database question');
  await f.direct('mona', ['mark'], 'reply about the database https://example.org', { hasLink: true });
  await f.direct('mark', ['mark'], 'note to self');
  await f.direct('mona', ['milo'], 'private between others');
  await f.direct('mark', ['mona', 'milo'], 'group chat hello', { reactions: ['milo'] });
  await f.direct('mona', ['milo', 'maya'], 'another group entirely');
  await f.direct('maya', ['mark', 'mona'], 'group with maya about the database');
  await f.direct('olivia', ['mark'], 'starred direct message', { flags: { mark: starred } });

  await f.muteStream('mark', 'engineering');
  await f.topicPolicy('mark', 'general', 'muted thing', 1);
  await f.topicPolicy('mark', 'engineering', 'unmuted topic', 2);
  await f.topicPolicy('mark', 'engineering', 'Followed One', 3);
  return f;
}

function cases(ctx: TestContext, f: MessageFixtures): Case[] {
  const { users, streams } = ctx.seed;
  const byContent = (text: string) => f.messages.find((m) => m.content.includes(text))!.id;
  return [
    { terms: [['channel', 'general']] },
    { terms: [['stream', streams.engineering.id]] },
    { terms: [['channel', 'design']] },
    { terms: [['channel', 'leadership']], empty: true },
    { terms: [['channel', 'leadership']], viewer: 'adam' },
    { terms: [['channels', 'public']] },
    { terms: [['channels', 'public']], viewer: 'gus', empty: true },
    { terms: [['streams', 'web-public']], empty: true },
    { terms: [['topic', 'DEPLOY plan']] },
    { terms: [['channel', 'general'], ['topic', 'deploy plan']] },
    { terms: [['channel', 'design'], ['topic', 'colors']] },
    { terms: [['sender', 'mona@confab.test']] },
    { terms: [['sender', users.olivia.id]] },
    { terms: [['dm', [users.mona.id]]] },
    { terms: [['pm-with', 'mona@confab.test']] },
    { terms: [['dm', [users.mark.id]]] },
    { terms: [['dm', [users.mona.id, users.milo.id]]] },
    { terms: [['dm', [users.mona.id, users.maya.id, users.mark.id]]] },
    { terms: [['dm', [users.adam.id, users.maya.id]]], empty: true },
    { terms: [['dm', []]], empty: true },
    { terms: [['dm-including', users.mona.id]] },
    { terms: [['dm-including', 'mark@confab.test']] },
    { terms: [['group-pm-with', 'mona@confab.test']] },
    { terms: [['is', 'dm']] },
    { terms: [['is', 'private']] },
    { terms: [['is', 'starred']] },
    { terms: [['is', 'unread']] },
    { terms: [['is', 'mentioned']] },
    { terms: [['is', 'alerted']] },
    { terms: [['is', 'resolved']] },
    { terms: [['channel', 'general'], ['is', 'resolved']] },
    { terms: [['is', 'followed']] },
    { terms: [['is', 'muted']] },
    { terms: [['has', 'link']] },
    { terms: [['has', 'image']] },
    { terms: [['has', 'attachment']] },
    { terms: [['has', 'reaction']] },
    { terms: [['channel', 'design'], ['has', 'reaction']] },
    { terms: [['in', 'home']] },
    { terms: [['channel', 'engineering'], ['in', 'home']] },
    { terms: [['in', 'all']], plainOnly: true },
    { terms: [['near', String(byContent('pizza'))]], plainOnly: true },
    { terms: [['id', byContent('pizza')]] },
    { terms: [['id', String(byContent('bug is fixed'))]] },
    { terms: [['search', 'database']] },
    { terms: [['search', 'Deploy']] },
    { terms: [['channel', 'design'], ['search', 'deploy']] },
    { terms: [['channels', 'public'], ['search', 'deploying']] },
    { terms: [['search', 'cats'], ['search', 'dogs']] },
    { terms: [['search', '"extra cheese"']] },
    { terms: [['search', 'the and']], empty: true },
    { terms: [['with', byContent('living together')]], plainOnly: true },
    { terms: [['with', byContent('new colors')]], plainOnly: true },
    { terms: [['with', byContent('reply about')]], plainOnly: true },
    { terms: [['with', byContent('group with maya')], ['is', 'unread']], plainOnly: true },
    { terms: [['sender', 'mona@confab.test'], ['has', 'link']] },
    { terms: [['channel', 'general'], ['is', 'unread'], ['sender', users.mona.id]] },
  ];
}

for (const dialect of testDialects()) {
  describe(`narrow SQL and predicate agree [${dialect}]`, () => {
    let ctx: TestContext;
    let f: MessageFixtures;
    before(async () => {
      ctx = await setup(dialect);
      f = await buildFixture(ctx);
    });
    after(() => ctx.close());

    async function compare(terms: NarrowTerm[], viewerName: DevUserName, searchProbeLimit?: number): Promise<number[]> {
      const { realm } = ctx.seed;
      const viewer = ctx.seed.users[viewerName];
      const db = ctx.services.db;
      const fetched = await fetchMessages(db, {
        realm,
        user: viewer,
        narrow: terms,
        anchor: 'oldest',
        numBefore: 0,
        numAfter: 5000,
        includeAnchor: true,
        searchProbeLimit,
      });
      const sqlIds = fetched.rows.map((r) => r.id);

      const resolved = await resolveNarrow(db, realm, viewer, normalizeNarrow(terms));
      const predicate = buildNarrowPredicate(resolved, await loadTopicState(db, viewer.id));
      const universe = resolved.includeHistory ? f.messages : f.messages.filter((m) => m.flags.has(viewer.id));
      const predicateIds = universe.map((m) => f.facts(m, viewer.id)).filter(predicate).map((m) => m.id);
      assert.deepEqual(sqlIds, predicateIds, `narrow ${JSON.stringify(terms)} as ${viewerName}`);
      return sqlIds;
    }

    it('selects the same messages for every operator and its negation', async () => {
      for (const c of cases(ctx, f)) {
        const viewer = c.viewer ?? 'mark';
        const terms = c.terms.map(([operator, operand]) => ({ operator, operand, negated: false }));
        const ids = await compare(terms, viewer);
        assert.equal(ids.length === 0, Boolean(c.empty), `${JSON.stringify(c.terms)} as ${viewer} matched ${ids.length}`);
        // PostgreSQL answers searches with few matches from a list of ids, others from the index: try both.
        if (terms.some((t) => t.operator === 'search')) assert.deepEqual(await compare(terms, viewer, 0), ids);
        if (c.plainOnly) continue;
        for (let i = 0; i < terms.length; i++) {
          const negatedOne = terms.map((t, j) => (j === i ? { ...t, negated: true } : t));
          await compare(negatedOne, viewer);
        }
      }
    });

    it('searches shared history only for readable streams', async () => {
      const design = f.messages.filter((m) => m.recipientId === ctx.seed.streams.design.recipient_id).map((m) => m.id);
      assert.deepEqual(await compare([{ operator: 'channel', operand: 'design', negated: false }], 'mark'), design);
      assert.deepEqual(await compare([{ operator: 'channel', operand: 'design', negated: false }], 'gus'), []);
      assert.deepEqual(await compare([{ operator: 'channel', operand: 'leadership', negated: false }], 'mark'), []);
    });
  });
}
