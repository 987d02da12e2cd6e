// GET /realm/presence and GET /users/{user_id_or_email}/presence.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`presence reads [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(async () => {
      await ctx.services.db.deleteFrom('user_presence').execute();
      ctx.clock.advance(3600);
    });

    const now = () => Math.floor(ctx.clock.now());
    const ping = async (name: 'mark' | 'mona' | 'milo' | 'gus', status = 'active') =>
      expectSuccess(await ctx.as(name).post('/users/me/presence', { status, ping_only: true }));

    it('GET /realm/presence lists active humans connected in the last two weeks, in the legacy form', async () => {
      const { mark, mona, milo } = ctx.seed.users;
      await ping('milo');
      ctx.clock.advance(14 * 24 * 3600 + 1);
      const t = now();
      await ping('mark');
      await ping('mona', 'idle');
      // A bot's row (the reference refuses bots' pings, but old data may exist) is left out too.
      const bot = ctx.seed.users.welcomeBot;
      await ctx.services.db.insertInto('user_presence').values({ user_id: bot.id, realm_id: ctx.seed.realm.id, last_active_time: t, last_connected_time: t }).execute();
      const body = expectSuccess(await ctx.as('gus').get('/realm/presence'));
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        server_timestamp: t,
        presences: {
          [mark.email]: {
            website: { client: 'website', status: 'active', timestamp: t, pushable: false },
            aggregated: { client: 'website', status: 'active', timestamp: t },
          },
          [mona.email]: {
            website: { client: 'website', status: 'idle', timestamp: t, pushable: false },
            aggregated: { client: 'website', status: 'idle', timestamp: t },
          },
        },
      });
      assert.equal(milo.email in body.presences, false);
    });

    it('GET /users/{user_id_or_email}/presence answers by id or email, offline past the threshold', async () => {
      const { mark } = ctx.seed.users;
      const t = now();
      await ping('mark');
      const expected = { website: { status: 'active', timestamp: t }, aggregated: { status: 'active', timestamp: t } };
      assert.deepEqual(expectSuccess(await ctx.as('mona').get(`/users/${mark.id}/presence`)).presence, expected);
      assert.deepEqual(expectSuccess(await ctx.as('mona').get(`/users/${mark.email}/presence`)).presence, expected);
      ctx.clock.advance(141);
      assert.deepEqual(expectSuccess(await ctx.as('welcomeBot').get(`/users/${mark.id}/presence`)).presence, {
        website: { status: 'idle', timestamp: t },
        aggregated: { status: 'offline', timestamp: t },
      });
    });

    it('GET /users/{user_id_or_email}/presence refuses bots, unknown and deactivated users, and users without data', async () => {
      const { mona, welcomeBot } = ctx.seed.users;
      expectError(await ctx.as('mark').get(`/users/${welcomeBot.id}/presence`), 'Presence is not supported for bot users.');
      expectError(await ctx.as('mark').get('/users/999999/presence'), 'No such user');
      expectError(await ctx.as('mark').get('/users/nobody@confab.test/presence'), 'No such user');
      expectError(await ctx.as('mark').get(`/users/${mona.id}/presence`), `No presence data for ${mona.id}`);
      expectError(await ctx.as('mark').get(`/users/${mona.email}/presence`), `No presence data for ${mona.email}`);
      await ping('mona');
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', mona.id).execute();
      try {
        expectError(await ctx.as('mark').get(`/users/${mona.id}/presence`), 'No such user');
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', mona.id).execute();
      }
    });
  });
}
