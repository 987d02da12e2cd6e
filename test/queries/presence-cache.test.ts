// The realm's kept `presences` answer: pings that miss it together share one read of the store, a
// failed read is not kept, and a write committed while the read is under way still shows.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { DbOrTx } from '../../src/db/schema.js';
import { cachedPresences, notePresenceWrite } from '../../src/queries/presence-cache.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

/** Counts the statements sent through it, and makes the next `failures` of them fail. */
class CountingPlugin implements KyselyPlugin {
  queries = 0;
  failures = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries += 1;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('store unreachable');
    }
    return args.result;
  }
}

for (const dialect of testDialects()) {
  describe(`kept realm presences [${dialect}]`, () => {
    let ctx: TestContext;
    let counting: CountingPlugin;
    let db: DbOrTx;
    let second = 1_900_000_000;
    before(async () => {
      ctx = await setup(dialect);
      const { mark, mona } = ctx.seed.users;
      await ctx.services.db
        .insertInto('user_presence')
        .values([mark, mona].map((u) => ({ user_id: u.id, realm_id: ctx.seed.realm.id, last_active_time: second, last_connected_time: second })))
        .execute();
    });
    after(() => ctx.close());
    beforeEach(() => {
      counting = new CountingPlugin();
      db = ctx.services.db.withPlugin(counting);
      second += 10;
    });

    it('reads the store once for many pings missing the same second, in either form', async () => {
      const { mark, mona } = ctx.seed.users;
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => cachedPresences(db, ctx.seed.realm.id, i % 2 === 0, second)));
      assert.equal(counting.queries, 1);
      for (const [i, answer] of answers.entries()) {
        assert.deepEqual(Object.keys(answer).sort(), i % 2 === 0 ? [String(mark.id), String(mona.id)].sort() : [mark.email, mona.email].sort());
      }
      await cachedPresences(db, ctx.seed.realm.id, true, second);
      assert.equal(counting.queries, 1);
      await cachedPresences(db, ctx.seed.realm.id, true, second + 1);
      assert.equal(counting.queries, 2);
    });

    it('keeps no failed read: every waiting ping sees the failure and the next one reads again', async () => {
      counting.failures = 1;
      const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => cachedPresences(db, ctx.seed.realm.id, true, second)));
      assert.equal(counting.queries, 1);
      assert.deepEqual(
        outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'answered')),
        Array(5).fill('store unreachable'),
      );
      const retried = await cachedPresences(db, ctx.seed.realm.id, true, second);
      assert.equal(counting.queries, 2);
      assert.ok(String(ctx.seed.users.mark.id) in retried);
    });

    it('shows a write committed while the shared read is under way', async () => {
      const { milo } = ctx.seed.users;
      const pending = cachedPresences(db, ctx.seed.realm.id, true, second);
      const entry = { userId: milo.id, email: milo.email, dateJoined: Number(milo.date_joined), lastActive: second, lastConnected: second };
      notePresenceWrite(db, ctx.seed.realm.id, entry);
      const answer = await pending;
      assert.equal(counting.queries, 1);
      assert.ok(String(milo.id) in answer);
      assert.ok(String(milo.id) in (await cachedPresences(db, ctx.seed.realm.id, true, second)));
      assert.ok(milo.email in (await cachedPresences(db, ctx.seed.realm.id, false, second)));
    });
  });
}
