import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it, mock } from 'node:test';
import { dummyPasswordHash, hashPassword, passwords, verifyPassword } from '../../src/lib/credentials.js';
import { type ApiResponse, expectError } from '../support/client.js';
import { createOtherRealm, setup, type TestContext } from '../support/context.js';

describe('password checks', () => {
  it('run off the event loop: other work goes on while several are in flight', async () => {
    const stored = await hashPassword('a password');
    const order: string[] = [];
    const checks = [1, 2, 3, 4].map((i) => verifyPassword(`guess ${i}`, stored).then((matches) => order.push(`check ${matches}`)));
    // Work handed to another thread can only come back on a turn of the event loop; a check done
    // on the loop itself would be over within these few microtasks, however fast the machine.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    assert.deepEqual(order, []);
    await Promise.all(checks);
    assert.deepEqual(order, ['check false', 'check false', 'check false', 'check false']);
    assert.equal(await verifyPassword('a password', stored), true);
  });

  it('match nothing against a missing or damaged stored hash', async () => {
    assert.equal(await verifyPassword('x', null), false);
    assert.equal(await verifyPassword('x', 'md5$abc'), false);
    assert.equal(await verifyPassword('x', 'scrypt$3$8$1$c2FsdA==$aGFzaA=='), false);
  });
});

describe('POST /fetch_api_key does the same work for every refusal', () => {
  let ctx: TestContext;
  let elsewhereHash: string;
  before(async () => {
    ctx = await setup('sqlite');
    const { owner } = await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other', password: 'elsewhere-pw' });
    elsewhereHash = owner.password_hash!;
  });
  after(() => ctx.close());
  afterEach(() => mock.restoreAll());

  /** The stored hashes the login checked the password against. */
  async function checkedHashes(username: string, password: string): Promise<{ res: ApiResponse; hashes: (string | null)[] }> {
    const verify = mock.method(passwords, 'verify');
    const res = await ctx.anonymous().post('/fetch_api_key', { username, password });
    return { res, hashes: verify.mock.calls.map((call) => call.arguments[1]) };
  }
  const failed = (res: ApiResponse) => expectError(res, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);

  it('checks a dummy hash once for an address no organization knows', async () => {
    const { res, hashes } = await checkedHashes('nobody@confab.test', 'guess');
    failed(res);
    assert.deepEqual(hashes, [await dummyPasswordHash()]);
  });

  it('checks the account once for a wrong password, and a dummy for an account without one', async () => {
    const mark = await ctx.services.db.selectFrom('user_profile').select('password_hash').where('id', '=', ctx.seed.users.mark.id).executeTakeFirstOrThrow();
    const wrong = await checkedHashes('mark@confab.test', 'guess');
    failed(wrong.res);
    assert.deepEqual(wrong.hashes, [mark.password_hash]);
    const bot = await checkedHashes('welcome-bot@confab.test', 'guess');
    failed(bot.res);
    assert.deepEqual(bot.hashes, [await dummyPasswordHash()]);
    // The dummy's own password opens no account.
    failed((await checkedHashes('welcome-bot@confab.test', 'not the password of anyone')).res);
    failed((await checkedHashes('nobody@confab.test', 'not the password of anyone')).res);
  });

  it('checks the other organization’s account once, and answers alike when the password is wrong', async () => {
    const wrong = await checkedHashes('owen@other.test', 'guess');
    failed(wrong.res);
    assert.deepEqual(wrong.hashes, [elsewhereHash]);
    const right = await checkedHashes('owen@other.test', 'elsewhere-pw');
    expectError(right.res, 'Invalid subdomain', 'NONEXISTENT_SUBDOMAIN', 404);
    assert.deepEqual(right.hashes, [elsewhereHash]);
  });
});
