// The embedded store's query plans for common narrows: each range scan must walk an index
// in id order (no table scan, no sort of the whole match), so fetches stay fast on large stores.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import type { NarrowTerm } from '../../src/lib/narrow/types.js';
import { unreadState } from '../../src/events/state/messages.js';
import { fetchMessages } from '../../src/queries/message-fetch.js';
import { setup, type TestContext } from '../support/context.js';
import { MessageFixtures } from '../support/message-fixtures.js';

describe('message fetch query plans [sqlite]', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await setup('sqlite');
    const f = new MessageFixtures(ctx);
    await f.toStream('olivia', 'general', 'lunch', 'pizza today');
    await f.direct('mona', ['mark'], 'hello');
  });
  after(() => ctx.close());

  /** A database handle that records every query run through it. */
  function recorder(): { spy: Kysely<Database>; seen: CompiledQuery[] } {
    const db = ctx.services.db;
    const seen: CompiledQuery[] = [];
    const spy = db.withPlugin({
      transformQuery: (args) => {
        seen.push(db.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    return { spy, seen };
  }

  /** The plans of the range queries fetchMessages runs for this narrow, one string per query. */
  async function plans(narrow: Array<[string, NarrowTerm['operand']]>, anchor: 'newest' | 'first_unread' = 'newest'): Promise<string[]> {
    const db = ctx.services.db;
    const { spy, seen } = recorder();
    await fetchMessages(spy, {
      realm: ctx.seed.realm,
      user: ctx.seed.users.mark,
      narrow: narrow.map(([operator, operand]) => ({ operator, operand, negated: false })),
      anchor,
      numBefore: 50,
      numAfter: 50,
      includeAnchor: true,
    });
    const ranges = seen.filter((q) => /\blimit\b/i.test(q.sql) && /user_message|"message"/.test(q.sql));
    const out: string[] = [];
    for (const query of ranges) {
      const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
      out.push(rows.map((r) => r.detail).join(' | '));
    }
    return out;
  }

  const cases: Array<[string, Array<[string, NarrowTerm['operand']]>, RegExp]> = [
    ['combined feed', [], /SEARCH um USING (COVERING )?INDEX sqlite_autoindex_user_message_1/],
    ['stream history', [['channel', 'general']], /SEARCH m USING (COVERING )?INDEX message_recipient_id/],
    ['stream and topic history', [['channel', 'general'], ['topic', 'lunch']], /SEARCH m USING (COVERING )?INDEX message_recipient_topic/],
    ['stream and topic, own rows', [['channel', 'general'], ['topic', 'lunch'], ['is', 'alerted']], /SEARCH m USING (COVERING )?INDEX message_recipient_topic/],
    ['unread', [['is', 'unread']], /INDEX user_message_unread/],
    ['starred', [['is', 'starred']], /INDEX user_message_starred/],
    ['direct messages', [['is', 'dm']], /INDEX user_message_private/],
    ['one conversation', [['dm', 'mona@confab.test']], /INDEX user_message_private/],
    ['combined feed without muted', [['in', 'home']], /SEARCH um USING (COVERING )?INDEX sqlite_autoindex_user_message_1/],
    ['search', [['search', 'pizza']], /SCAN f VIRTUAL TABLE/],
    ['search in a stream', [['channel', 'general'], ['search', 'pizza']], /SCAN f VIRTUAL TABLE/],
  ];
  for (const [name, narrow, expected] of cases) {
    it(`walks an index for: ${name}`, async () => {
      const found = await plans(narrow);
      assert.ok(found.length > 0, 'no range query seen');
      for (const plan of found) {
        assert.match(plan, expected);
        assert.doesNotMatch(plan, /TEMP B-TREE|SCAN (um|m)\b/, plan);
      }
    });
  }

  it('finds the first unread message through the unread index', async () => {
    const found = await plans([], 'first_unread');
    assert.match(found[0]!, /INDEX user_message_unread/);
  });

  it("reads a user's unread summary from the unread index alone, without sorting", async () => {
    const db = ctx.services.db;
    const { spy, seen } = recorder();
    await unreadState(spy, ctx.seed.users.mark.id);
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${seen[0]!.sql}`, [...seen[0]!.parameters]));
    const plan = rows.map((r) => r.detail).join(' | ');
    assert.match(plan, /SEARCH um USING COVERING INDEX user_message_unread/);
    assert.match(plan, /SEARCH m USING COVERING INDEX message_unread_summary/);
    assert.doesNotMatch(plan, /TEMP B-TREE|AUTOMATIC/, plan);
  });
});
