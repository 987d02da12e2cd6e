// presence events: their shape, and that an earlier /register state plus the events equals a
// fresh one, in the legacy and the slim form (the clock stands still between the two fetches).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { fetchStateOf, type StateRequest, verifyFolding } from '../support/register-state.js';

const WATCHERS: DevUserName[] = ['mark', 'mona', 'gus'];
const REQUESTS: StateRequest[] = [
  { wanted: null },
  { wanted: null, slimPresence: true },
  { wanted: ['presence'] },
];

for (const dialect of testDialects()) {
  describe(`presence events [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(async () => {
      await ctx.services.db.deleteFrom('user_presence').execute();
      ctx.clock.advance(3600);
    });

    const ping = async (name: DevUserName, status: 'active' | 'idle') =>
      expectSuccess(await ctx.as(name).post('/users/me/presence', { status, ping_only: true }));

    async function verifyAll(action: () => Promise<void>, requests = REQUESTS): Promise<void> {
      for (const request of requests) {
        await ctx.services.db.deleteFrom('user_presence').execute();
        ctx.clock.advance(3600);
        const labels = await verifyFolding(ctx, { watchers: WATCHERS, action, request });
        assert.deepEqual(labels.filter((l) => l === 'presence').length, 1, JSON.stringify(request));
      }
    }

    it('a first active ping', async () => {
      await verifyAll(() => ping('milo', 'active').then(() => undefined));
    });

    it('a first idle ping (the slim form keeps the join time as the last activity)', async () => {
      await verifyAll(() => ping('milo', 'idle').then(() => undefined), REQUESTS.filter((r) => r.wanted === null));
    });

    it('coming back online after more than 70 seconds without activity', async () => {
      for (const request of REQUESTS) {
        await ctx.services.db.deleteFrom('user_presence').execute();
        await ping('milo', 'active');
        ctx.clock.advance(71);
        const labels = await verifyFolding(ctx, { watchers: WATCHERS, action: () => ping('milo', 'active').then(() => undefined), request });
        assert.deepEqual(labels, ['presence'], JSON.stringify(request));
      }
    });

    it('register answers with presences, the server time and the presence timings', async () => {
      await ping('milo', 'active');
      const t = Math.floor(ctx.clock.now());
      const { milo } = ctx.seed.users;
      const legacy = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['presence', 'realm'] }));
      assert.equal(legacy.server_timestamp, t);
      assert.deepEqual(legacy.presences, {
        [milo.email]: {
          website: { client: 'website', status: 'active', timestamp: t, pushable: false },
          aggregated: { client: 'website', status: 'active', timestamp: t },
        },
      });
      assert.equal(legacy.server_presence_ping_interval_seconds, 60);
      assert.equal(legacy.server_presence_offline_threshold_seconds, 140);
      const slim = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['presence'], slim_presence: true }));
      assert.deepEqual(slim.presences, { [String(milo.id)]: { active_timestamp: t, idle_timestamp: t } });
      const none = await fetchStateOf(ctx, 'mark', { wanted: ['message'] });
      assert.equal('presences' in none, false);
    });
  });
}
