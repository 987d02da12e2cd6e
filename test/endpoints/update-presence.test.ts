import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users/me/presence [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(async () => {
      await ctx.services.db.deleteFrom('user_presence').execute();
      ctx.clock.advance(3600);
      ctx.clearEvents();
    });

    const now = () => Math.floor(ctx.clock.now());
    const rowOf = (userId: number) =>
      ctx.services.db.selectFrom('user_presence').select(['last_active_time', 'last_connected_time']).where('user_id', '=', userId).executeTakeFirst();
    const times = async (userId: number) => {
      const row = await rowOf(userId);
      return row && [row.last_active_time === null ? null : Number(row.last_active_time), Number(row.last_connected_time)];
    };
    const activeUsers = async () =>
      (await ctx.services.db.selectFrom('user_profile').select('id').where('realm_id', '=', ctx.seed.realm.id).where('is_active', '=', 1).orderBy('id').execute()).map((r) => r.id);

    it('records a first ping, answers with everyone in the legacy form, and announces it', async () => {
      const { mark } = ctx.seed.users;
      const t = now();
      const body = expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active', new_user_input: true }));
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        presences: {
          [mark.email]: {
            website: { client: 'website', status: 'active', timestamp: t, pushable: false },
            aggregated: { client: 'website', status: 'active', timestamp: t },
          },
        },
        server_timestamp: t,
      });
      assert.deepEqual(await times(mark.id), [t, t]);
      assert.equal(ctx.events.length, 1);
      assert.deepEqual(ctx.events[0]!.event, {
        type: 'presence',
        user_id: mark.id,
        email: mark.email,
        server_timestamp: t,
        presence: { website: { client: 'website', status: 'active', timestamp: t, pushable: false } },
      });
      assert.deepEqual([...ctx.events[0]!.users].sort((a, b) => a - b), await activeUsers());
    });

    it('answers in the slim form, keyed by user id, when asked', async () => {
      const { mark, mona } = ctx.seed.users;
      const t0 = now();
      expectSuccess(await ctx.as('mona').post('/users/me/presence', { status: 'idle' }));
      ctx.clock.advance(10);
      const body = expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active', slim_presence: true }));
      const mona0 = (await ctx.services.db.selectFrom('user_profile').select('date_joined').where('id', '=', mona.id).executeTakeFirstOrThrow()).date_joined;
      assert.deepEqual(body.presences, {
        [String(mona.id)]: { active_timestamp: Number(mona0), idle_timestamp: t0 },
        [String(mark.id)]: { active_timestamp: t0 + 10, idle_timestamp: t0 + 10 },
      });
    });

    it('with ping_only answers nothing but success', async () => {
      const body = expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active', ping_only: true }));
      assert.deepEqual(body, { result: 'success', msg: '' });
      assert.notEqual(await rowOf(ctx.seed.users.mark.id), undefined);
    });

    it('writes nothing for pings that move no timestamp by more than 55 seconds, and announces only a return', async () => {
      const { mark } = ctx.seed.users;
      const t = now();
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active', ping_only: true }));
      ctx.clearEvents();
      ctx.clock.advance(55);
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active', ping_only: true }));
      assert.deepEqual(await times(mark.id), [t, t], 'within 55 seconds nothing moves');
      ctx.clock.advance(5);
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active', ping_only: true }));
      assert.deepEqual(await times(mark.id), [t + 60, t + 60]);
      ctx.clock.advance(60);
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'idle', ping_only: true }));
      assert.deepEqual(await times(mark.id), [t + 60, t + 120], 'idle moves only the connection');
      assert.equal(ctx.events.length, 0, 'routine pings are not announced');
      ctx.clock.advance(11);
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active', ping_only: true }));
      assert.deepEqual(await times(mark.id), [t + 131, t + 131]);
      assert.deepEqual(ctx.events.map((d) => d.event.presence), [{ website: { client: 'website', status: 'active', timestamp: t + 131, pushable: false } }]);
    });

    it('calls a user idle in the legacy form two minutes after their last activity', async () => {
      const { mark } = ctx.seed.users;
      const t = now();
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active' }));
      ctx.clock.advance(121);
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'idle', ping_only: true }));
      const body = expectSuccess(await ctx.as('mona').post('/users/me/presence', { status: 'active' }));
      assert.deepEqual(body.presences[mark.email], {
        website: { client: 'website', status: 'idle', timestamp: t + 121, pushable: false },
        aggregated: { client: 'website', status: 'idle', timestamp: t + 121 },
      });
    });

    it('refuses an unknown status, a missing one and bots', async () => {
      expectError(await ctx.as('mark').post('/users/me/presence', { status: 'away' }), 'Invalid status: away');
      expectError(await ctx.as('mark').post('/users/me/presence', {}), "Missing 'status' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await ctx.as('mark').post('/users/me/presence', { status: 'active', ping_only: 5 }), 'ping_only is not a boolean');
      expectError(await ctx.as('welcomeBot').post('/users/me/presence', { status: 'active' }), 'This endpoint does not accept bot requests.');
      assert.deepEqual(await ctx.services.db.selectFrom('user_presence').selectAll().execute(), []);
    });

    it('records nothing for a user who turned presence off, and leaves them out', async () => {
      const { mark, mona } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active' }));
      expectSuccess(await ctx.as('mark').patch('/settings', { presence_enabled: false }));
      ctx.clearEvents();
      ctx.clock.advance(600);
      const body = expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active' }));
      assert.equal(await times(mark.id).then((t) => t?.[1]), now() - 600);
      assert.deepEqual(ctx.events, []);
      assert.deepEqual(body.presences, {});
      const seenByMona = expectSuccess(await ctx.as('mona').post('/users/me/presence', { status: 'active' }));
      assert.deepEqual(Object.keys(seenByMona.presences), [mona.email]);
      expectSuccess(await ctx.as('mark').patch('/settings', { presence_enabled: true }));
    });

    it("in an organization with presence disabled, records pings but shows and announces nobody's", async () => {
      const { mark } = ctx.seed.users;
      await setRealmSettings(ctx, { presence_disabled: true });
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mark').post('/users/me/presence', { status: 'active' }));
      assert.deepEqual(body.presences, {});
      assert.deepEqual(ctx.events.filter((d) => d.event.type === 'presence'), []);
      assert.notEqual(await rowOf(mark.id), undefined);
      await setRealmSettings(ctx, { presence_disabled: false });
    });
  });
}
