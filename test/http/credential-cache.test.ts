// Remembered credentials read the store's counters once per turn of the event loop, however many
// polls and requests arrive in it (src/http/credential-cache.ts), and still see every change: on
// SQLite a write this process sends makes the next lookup read again at once; elsewhere the
// lookups of a turn share one read that begins after they all arrived.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import type { Store } from '../../src/db/connect.js';
import { CredentialCache, type Lookup } from '../../src/http/credential-cache.js';
import { ApiClient } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const HOST = 'confab.test';
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
/** The user a lookup found, or null when it found only the counters. */
const userIdOf = (lookup: Lookup | Promise<Lookup>) => {
  assert.ok(!(lookup instanceof Promise), 'answered within the call');
  return 'found' in lookup ? lookup.found.user.id : null;
};

for (const dialect of testDialects()) {
  describe(`poll credential counters, once per turn [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    /** The store with its reads counted: reads at once (SQLite) and queries run as usual. */
    function countedStore(): { store: Store; reads: () => number } {
      let reads = 0;
      // Counted as their results come back: queries compiled beforehand (prepared ones) skip transformQuery.
      const counting: KyselyPlugin = {
        transformQuery: (args) => args.node,
        transformResult: (args) => {
          reads++;
          return Promise.resolve(args.result);
        },
      };
      const { store } = ctx.services;
      const counted: Store = { ...store, db: store.db.withPlugin(counting) };
      if (store.readNow) {
        counted.readNow = (query) => {
          reads++;
          return store.readNow!(query);
        };
      }
      return { store: counted, reads: () => reads };
    }

    async function remembered(store: Store) {
      const mark = ctx.seed.users.mark;
      const authorization = ApiClient.basic(mark.delivery_email, mark.api_key);
      const cache = new CredentialCache(store);
      const stamp = await cache.stampFor(HOST);
      assert.ok(stamp);
      const user = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', mark.id).executeTakeFirstOrThrow();
      const realm = await ctx.services.db.selectFrom('realm').selectAll().where('id', '=', mark.realm_id).executeTakeFirstOrThrow();
      cache.remember(authorization, HOST, { user, realm }, stamp);
      await nextTurn();
      return { cache, authorization, mark };
    }

    it('reads the counters once for all the polls of a turn, and again in the next', async () => {
      const { store, reads } = countedStore();
      const { cache, authorization, mark } = await remembered(store);
      const before = reads();
      const found = await Promise.all(Array.from({ length: 50 }, () => cache.lookup(authorization, HOST)));
      assert.deepEqual(new Set(found.map((lookup) => userIdOf(lookup))), new Set([mark.id]));
      assert.equal(reads() - before, 1);
      await nextTurn();
      await cache.lookup(authorization, HOST);
      assert.equal(reads() - before, 2);
    });

    it('hands each request its own copy of the user row', async () => {
      const { cache, authorization, mark } = await remembered(ctx.services.store);
      const first = await cache.lookup(authorization, HOST);
      assert.ok('found' in first);
      first.found.user.full_name = 'Changed by one request';
      const second = await cache.lookup(authorization, HOST);
      assert.ok('found' in second);
      assert.equal(second.found.user.full_name, mark.full_name);
      assert.equal(second.found.realm.id, mark.realm_id);
    });

    it('sees a deactivation committed in the same turn, before the next poll', async () => {
      const { store } = countedStore();
      const { cache, authorization, mark } = await remembered(store);
      assert.equal(userIdOf(await cache.lookup(authorization, HOST)), mark.id);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', mark.id).execute();
      try {
        const after = await cache.lookup(authorization, HOST);
        assert.ok('stamp' in after, `still remembered: ${JSON.stringify(after)}`);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', mark.id).execute();
      }
    });

    if (dialect === 'sqlite') {
      it('answers within the call on SQLite, and reads again at once after this process writes', async () => {
        const { store, reads } = countedStore();
        const { cache, authorization, mark } = await remembered(store);
        const before = reads();
        for (let i = 0; i < 20; i++) assert.equal(userIdOf(cache.lookup(authorization, HOST)), mark.id);
        assert.equal(reads() - before, 1);
        await ctx.services.db.updateTable('user_profile').set({ full_name: 'Mark Renamed' }).where('id', '=', mark.id).execute();
        const renamed = cache.lookup(authorization, HOST);
        assert.equal(reads() - before, 2);
        assert.ok(!(renamed instanceof Promise) && 'stamp' in renamed, 'a changed user row forgets the credentials');
        await ctx.services.db.updateTable('user_profile').set({ full_name: mark.full_name }).where('id', '=', mark.id).execute();
      });
    }
  });
}
