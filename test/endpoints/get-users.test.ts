import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { avatarPath } from '../../src/lib/user-format.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
    });
    after(() => ctx.close());

    it('lists every user of the realm by id: deactivated users and bots included', async () => {
      const body = expectSuccess(await ctx.as('mark').get('/users'));
      const ids = body.members.map((m: any) => m.user_id);
      const all = await ctx.services.db.selectFrom('user_profile').select('id').orderBy('id').execute();
      assert.deepEqual(ids, all.map((r) => r.id));
      const milo = body.members.find((m: any) => m.user_id === ctx.seed.users.milo.id);
      assert.equal(milo.is_active, false);
      const bot = body.members.find((m: any) => m.user_id === ctx.seed.users.welcomeBot.id);
      assert.equal(bot.is_bot, true);
      assert.equal(bot.bot_owner_id, ctx.seed.users.olivia.id);
      assert.equal(bot.bot_type, 1);
    });

    it('gives full user dictionaries without profile data unless asked', async () => {
      const body = expectSuccess(await ctx.as('mark').get('/users'));
      const adam = body.members.find((m: any) => m.user_id === ctx.seed.users.adam.id);
      assert.deepEqual(
        { ...adam, date_joined: undefined },
        {
          user_id: ctx.seed.users.adam.id,
          delivery_email: 'adam@confab.test',
          email: 'adam@confab.test',
          full_name: 'Adam Admin',
          date_joined: undefined,
          is_active: true,
          is_owner: false,
          is_admin: true,
          is_guest: false,
          is_billing_admin: false,
          is_bot: false,
          bot_type: null,
          bot_owner_id: null,
          role: 200,
          timezone: '',
          // Without --enable-gravatar every client gets real URLs, client_gravatar or not.
          avatar_url: `${avatarPath(ctx.seed.realm.id, ctx.seed.users.adam.id)}?version=1`,
          avatar_version: 1,
        },
      );
      assert.match(adam.date_joined, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    });

    it('sends avatar URLs when client_gravatar is false, and profile data on request (humans only)', async () => {
      const body = expectSuccess(await ctx.as('mark').get('/users', { client_gravatar: false, include_custom_profile_fields: true }));
      const mona = body.members.find((m: any) => m.user_id === ctx.seed.users.mona.id);
      assert.equal(mona.avatar_url, `${avatarPath(ctx.seed.realm.id, ctx.seed.users.mona.id)}?version=1`);
      assert.deepEqual(mona.profile_data, {});
      const bot = body.members.find((m: any) => m.user_id === ctx.seed.users.welcomeBot.id);
      assert.equal('profile_data' in bot, false);
    });

    it('rejects a non-boolean flag', async () => {
      expectError(await ctx.as('mark').get('/users', { client_gravatar: 'yes' }), 'client_gravatar is not valid JSON');
      expectError(await ctx.as('mark').get('/users', { include_custom_profile_fields: 3 }), 'include_custom_profile_fields is not a boolean');
    });

    it('reports unknown parameters', async () => {
      const body = expectSuccess(await ctx.as('gus').get('/users', { bogus: 1 }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['bogus']);
      assert.equal(body.members.length > 0, true);
    });
  });
}
