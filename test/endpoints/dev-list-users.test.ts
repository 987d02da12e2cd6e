import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { createOtherRealm, setup, type TestContext, TEST_URL } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

// The reference document does not describe this development-only endpoint.
const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`GET /dev_list_users [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const entry = (email: string, url = TEST_URL) => ({ email, realm_uri: url, realm_url: url });

    it('lists active people by email, administrators apart, bots left out', async () => {
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', ctx.seed.users.milo.id).execute();
      try {
        const body = expectSuccess(await ctx.anonymous().get('/dev_list_users', {}, undocumented));
        assert.deepEqual(body.direct_admins, [entry('adam@confab.test'), entry('olivia@confab.test')]);
        assert.deepEqual(body.direct_users, [
          entry('gus@confab.test'),
          entry('mark@confab.test'),
          entry('maya@confab.test'),
          entry('mona@confab.test'),
        ]);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', ctx.seed.users.milo.id).execute();
      }
    });

    it('includes the people of every organization on the server, each with its URL', async () => {
      await createOtherRealm(ctx, { email: 'aaron@other.test', fullName: 'Aaron Other' });
      const body = expectSuccess(await ctx.anonymous().get('/dev_list_users', {}, undocumented));
      assert.deepEqual(body.direct_admins[0], entry('aaron@other.test', 'http://other.confab.test'));
      assert.equal(body.direct_admins.length, 3);
    });

    it('is an error on production servers', async () => {
      ctx.services.config.dev = false;
      try {
        expectError(await ctx.anonymous().get('/dev_list_users', {}, undocumented), 'Endpoint not available in production.');
      } finally {
        ctx.services.config.dev = true;
      }
    });
  });
}
