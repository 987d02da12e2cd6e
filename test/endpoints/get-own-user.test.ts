import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { avatarPath } from '../../src/lib/user-format.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /users/me [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('returns the own user with avatar URL and profile data, and -1 before any message', async () => {
      const body = expectSuccess(await ctx.as('mona').get('/users/me'));
      assert.equal(body.user_id, ctx.seed.users.mona.id);
      assert.equal(body.email, 'mona@confab.test');
      assert.equal(body.delivery_email, 'mona@confab.test');
      assert.equal(body.avatar_url, `${avatarPath(ctx.seed.realm.id, ctx.seed.users.mona.id)}?version=1`);
      assert.deepEqual(body.profile_data, {});
      assert.equal(body.max_message_id, -1);
    });

    it('reports the highest message id the user has received or sent', async () => {
      const first = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'design', topic: 't', content: 'one' }));
      const second = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'engineering', topic: 't', content: 'two' }));
      // Mona is on design, not on engineering.
      assert.equal(expectSuccess(await ctx.as('mona').get('/users/me')).max_message_id, first.id);
      assert.equal(expectSuccess(await ctx.as('mark').get('/users/me')).max_message_id, second.id);
      assert.equal(expectSuccess(await ctx.as('gus').get('/users/me')).max_message_id, -1);
    });

    it('takes no parameters', async () => {
      const body = expectSuccess(await ctx.as('mark').get('/users/me', { client_gravatar: true }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['client_gravatar']);
    });
  });
}
