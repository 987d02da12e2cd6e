import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateRealm } from '../../src/actions/realm-create.js';
import { avatarPath } from '../../src/lib/user-format.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users/{user_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('returns one user', async () => {
      const { mona } = ctx.seed.users;
      const body = expectSuccess(await ctx.as('mark').get(`/users/${mona.id}`));
      assert.equal(body.user.user_id, mona.id);
      assert.equal(body.user.full_name, 'Mona Member');
      assert.equal(body.user.role, 400);
      // Without --enable-gravatar, client_gravatar (on by default) changes nothing: a real URL.
      assert.equal(body.user.avatar_url, `${avatarPath(ctx.seed.realm.id, mona.id)}?version=1`);
      assert.equal('profile_data' in body.user, false);
    });

    it('honours client_gravatar and include_custom_profile_fields', async () => {
      const { mona } = ctx.seed.users;
      const body = expectSuccess(
        await ctx.as('mark').get(`/users/${mona.id}`, { client_gravatar: false, include_custom_profile_fields: true }),
      );
      assert.equal(body.user.avatar_url, `${avatarPath(ctx.seed.realm.id, ctx.seed.users.mona.id)}?version=1`);
      assert.deepEqual(body.user.profile_data, {});
    });

    it('returns bots and deactivated users too', async () => {
      const bot = expectSuccess(await ctx.as('gus').get(`/users/${ctx.seed.users.welcomeBot.id}`));
      assert.equal(bot.user.is_bot, true);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
      const milo = expectSuccess(await ctx.as('mark').get(`/users/${ctx.seed.users.milo.id}`));
      assert.equal(milo.user.is_active, false);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', ctx.seed.users.milo.id).execute();
    });

    it('answers "No such user" for unknown ids and users of another realm', async () => {
      expectError(await ctx.as('mark').get('/users/99999'), 'No such user');
      const other = await runSystemAction(ctx.services, (sys) =>
        doCreateRealm(sys, { name: 'Elsewhere', url: 'http://elsewhere.test', stringId: 'elsewhere', owner: { email: 'boss@elsewhere.test', fullName: 'Boss' } }),
      );
      expectError(await ctx.as('mark').get(`/users/${other.owner.id}`), 'No such user');
    });
  });

  describe(`GET /users/{email} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('finds a user by API email, in any case', async () => {
      const body = expectSuccess(await ctx.as('mark').get('/users/MONA@confab.test'));
      assert.equal(body.user.user_id, ctx.seed.users.mona.id);
      assert.equal(body.user.email, 'mona@confab.test');
    });

    it('honours client_gravatar and include_custom_profile_fields', async () => {
      const body = expectSuccess(
        await ctx.as('mark').get('/users/mona@confab.test', { client_gravatar: false, include_custom_profile_fields: true }),
      );
      assert.equal(body.user.avatar_url, `${avatarPath(ctx.seed.realm.id, ctx.seed.users.mona.id)}?version=1`);
      assert.deepEqual(body.user.profile_data, {});
    });

    it('finds bots and the placeholder form user{id}@{realm host}', async () => {
      const bot = expectSuccess(await ctx.as('mark').get('/users/welcome-bot@confab.test'));
      assert.equal(bot.user.user_id, ctx.seed.users.welcomeBot.id);
      const placeholder = expectSuccess(await ctx.as('mark').get(`/users/user${ctx.seed.users.adam.id}@confab.test`));
      assert.equal(placeholder.user.user_id, ctx.seed.users.adam.id);
    });

    it('answers "No such user" for unknown emails and other hosts', async () => {
      expectError(await ctx.as('mark').get('/users/nobody@confab.test'), 'No such user');
      expectError(await ctx.as('mark').get(`/users/user${ctx.seed.users.adam.id}@elsewhere.test`), 'No such user');
      expectError(await ctx.as('mark').get('/users/user99999@confab.test'), 'No such user');
      expectError(await ctx.as('mark').get('/users/mo%00na@confab.test'), 'No such user');
    });

    it('does not find a user by a real email the requester may not see', async () => {
      const { mona } = ctx.seed.users;
      // Mona's API email differs from her real one, which only administrators may see.
      await ctx.services.db
        .updateTable('user_profile')
        .set({ email: `user${mona.id}@confab.test`, settings: JSON.stringify({ email_address_visibility: 3 }) })
        .where('id', '=', mona.id)
        .execute();
      expectError(await ctx.as('mark').get('/users/mona@confab.test'), 'No such user');
      expectSuccess(await ctx.as('adam').get('/users/mona@confab.test'));
      expectSuccess(await ctx.as('mark').get(`/users/user${mona.id}@confab.test`));
    });
  });
}
