import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyPassword } from '../../src/lib/credentials.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /users [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const userRow = (id: number) => ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('creates a member with a password, subscribed to the default streams, and announces them', async () => {
      ctx.clearEvents();
      const body = expectSuccess(
        await ctx.as('adam').post('/users', { email: 'newbie@confab.test', password: 'long enough', full_name: '  New Person ' }),
      );
      const row = await userRow(body.user_id);
      assert.equal(row.full_name, 'New Person');
      assert.equal(row.role, 400);
      assert.equal(row.is_active, 1);
      assert.equal(await verifyPassword('long enough', row.password_hash!), true);
      const subs = expectSuccess(await ctx.as('adam').get(`/streams/${ctx.seed.streams.general.id}/members`)).subscribers;
      assert.equal(subs.includes(body.user_id), true);
      const add = ctx.events.find((d) => d.event.type === 'realm_user' && d.event.op === 'add');
      assert.equal((add?.event.person as any).user_id, body.user_id);
    });

    it('is for administrators only', async () => {
      expectError(
        await ctx.as('mark').post('/users', { email: 'x@confab.test', password: 'long enough', full_name: 'X Person' }),
        'Must be an organization administrator',
        'UNAUTHORIZED_PRINCIPAL',
      );
      expectError(
        await ctx.as('maya').post('/users', { email: 'x@confab.test', password: 'long enough', full_name: 'X Person' }),
        'Must be an organization administrator',
        'UNAUTHORIZED_PRINCIPAL',
      );
    });

    it('refuses an email already in use, in any case', async () => {
      expectError(
        await ctx.as('olivia').post('/users', { email: 'MARK@confab.test', password: 'long enough', full_name: 'Mark Again' }),
        "Email 'MARK@confab.test' already in use",
      );
    });

    it('checks the name, the email and the password', async () => {
      const post = (params: Record<string, string>) =>
        ctx.as('adam').post('/users', { email: 'ok@confab.test', password: 'long enough', full_name: 'Okay Name', ...params });
      expectError(await post({ full_name: 'A' }), 'Name too short!');
      expectError(await post({ full_name: 'x'.repeat(101) }), 'Name too long!');
      expectError(await post({ full_name: 'Bad@Name' }), 'Invalid characters in name!');
      expectError(await post({ full_name: 'Tab\tName' }), 'Invalid characters in name!');
      expectError(await post({ full_name: 'Name|15' }), 'Invalid format!');
      expectError(await post({ email: 'not-an-email' }), 'Bad name or username');
      expectError(await post({ email: 'n\u0000l@confab.test' }), 'Bad name or username');
      expectError(await post({ password: 'short' }), 'The password is too weak.');
      expectError(await post({ password: 'qwertyuiop' }), 'The password is too weak.');
      const missing = await ctx.as('adam').post('/users', { email: 'ok@confab.test', full_name: 'Okay Name' });
      expectError(missing, "Missing 'password' argument", 'REQUEST_VARIABLE_MISSING');
      const none = await ctx.services.db.selectFrom('user_profile').select('id').where('email', '=', 'ok@confab.test').execute();
      assert.equal(none.length, 0);
    });

    it('lets the new user log in with the API', async () => {
      const body = expectSuccess(
        await ctx.as('olivia').post('/users', { email: 'fresh@confab.test', password: 'fresh password', full_name: 'Fresh Face' }),
      );
      const row = await userRow(body.user_id);
      const res = await ctx.anonymous().post('/fetch_api_key', { username: 'fresh@confab.test', password: 'fresh password' });
      assert.equal(expectSuccess(res).api_key, row.api_key);
    });
  });
}
