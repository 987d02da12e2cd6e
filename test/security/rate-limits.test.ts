import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { ApiClient, type ApiResponse, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const SMALL_LIMITS = {
  rateLimits: true,
  rateLimitUser: '3/60',
  rateLimitIp: '2/60',
  rateLimitLogin: '2/1800',
  rateLimitAuthIp: '4/60',
  trustedProxies: '127.0.0.1',
};

/** Asserts the exact 429 answer, with `retryAfter` seconds to wait. */
function expectRateLimited(res: ApiResponse, retryAfter: number) {
  expectError(res, 'API usage exceeded rate limit', 'RATE_LIMIT_HIT', 429);
  assert.deepEqual(res.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': retryAfter });
  assert.equal(res.headers['retry-after'], String(Math.ceil(retryAfter)));
}

function rateHeaders(res: ApiResponse) {
  return {
    limit: res.headers['x-ratelimit-limit'],
    remaining: res.headers['x-ratelimit-remaining'],
    reset: res.headers['x-ratelimit-reset'],
  };
}

/** Each test's requests come from addresses of their own, through the trusted proxy. */
let addressCounter = 0;
const newAddress = () => `198.51.100.${++addressCounter}`;
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

for (const dialect of testDialects()) {
  describe(`rate limits [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await setup(dialect, { config: SMALL_LIMITS });
    });
    after(() => ctx.close());
    // A day later every count has drained.
    beforeEach(() => ctx.clock.advance(86_400));

    const login = (username: string, password: string, address: string) =>
      ctx.anonymous().post('/fetch_api_key', { username, password }, from(address));

    it('refuses an authenticated user past the limit, with the X-RateLimit headers on every answer', async () => {
      const mark = ctx.as('mark');
      const now = ctx.clock.now();
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(rateHeaders(expectSuccessful(await mark.get('/users/me'))));
      assert.deepEqual(answers, [
        { limit: '3', remaining: '2', reset: String(now + 60) },
        { limit: '3', remaining: '1', reset: String(now + 60) },
        { limit: '3', remaining: '0', reset: String(now + 60) },
      ]);
      const refused = await mark.get('/users/me', {}, { undocumented: true });
      expectRateLimited(refused, 60);
      assert.deepEqual(rateHeaders(refused), { limit: '3', remaining: '0', reset: String(now + 60) });
      // The limit is the user's, whatever the address; other users are not affected.
      expectRateLimited(await mark.get('/users/me', {}, { ...from(newAddress()), undocumented: true }), 60);
      expectSuccess(await ctx.as('mona').get('/users/me'));
      ctx.clock.advance(59);
      expectRateLimited(await mark.get('/users/me', {}, { undocumented: true }), 1);
      ctx.clock.advance(1);
      assert.deepEqual(rateHeaders(expectSuccessful(await mark.get('/users/me'))), { limit: '3', remaining: '2', reset: String(now + 120) });
    });

    it('refuses a request while the limit\'s count of requests lies within the last window, however they were spread', async () => {
      const mark = ctx.as('mark');
      const now = ctx.clock.now();
      const remaining = [];
      for (let i = 0; i < 3; i++) {
        remaining.push(rateHeaders(expectSuccessful(await mark.get('/users/me'))));
        ctx.clock.advance(20);
      }
      // Each answer counts what the window holds, and resets a window after the newest request.
      assert.deepEqual(remaining, [
        { limit: '3', remaining: '2', reset: String(now + 60) },
        { limit: '3', remaining: '1', reset: String(now + 80) },
        { limit: '3', remaining: '0', reset: String(now + 100) },
      ]);
      // 60 s after the first: it has just left the window.
      expectSuccess(await mark.get('/users/me'));
      ctx.clock.advance(10);
      expectRateLimited(await mark.get('/users/me', {}, { undocumented: true }), 10);
    });

    it('counts event polls apart from other requests, on the short poll path and on the route', async () => {
      const milo = ctx.as('milo');
      const { queue_id } = expectSuccess(await milo.post('/register', { event_types: ['message'] }));
      // Polls answered before the route, then one the route answers (it has a parameter the short path leaves alone).
      for (let i = 0; i < 2; i++) expectSuccess(await milo.get('/events', { queue_id, last_event_id: -1, dont_block: true }));
      const routed = expectSuccessful(await milo.get('/events', { queue_id, last_event_id: -1, dont_block: true, ignored_extra: 1 }));
      assert.equal(routed.headers['x-ratelimit-remaining'], '0');
      expectRateLimited(await milo.get('/events', { queue_id, last_event_id: -1, dont_block: true }, { undocumented: true }), 20);
      // The other requests still have their own, exact, count (one used by the register).
      expectSuccess(await milo.get('/users/me'));
      expectSuccess(await milo.get('/users/me'));
      expectRateLimited(await milo.get('/users/me', {}, { undocumented: true }), 60);
    });

    it('refuses unauthenticated requests past the limit per client address', async () => {
      const address = newAddress();
      const anonymous = ctx.anonymous();
      const first = expectSuccessful(await anonymous.get('/server_settings', {}, from(address)));
      assert.equal(first.headers['x-ratelimit-limit'], '2');
      assert.equal(first.headers['x-ratelimit-remaining'], '1');
      expectSuccess(await anonymous.get('/server_settings', {}, from(address)));
      expectRateLimited(await anonymous.get('/server_settings', {}, { ...from(address), undocumented: true }), 60);
      expectSuccess(await anonymous.get('/server_settings', {}, from(newAddress())));
    });

    it('locks a username after failed passwords, refusing even the right one until the window passes', async () => {
      const failed = (res: ApiResponse) => expectError(res, 'Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);
      // Each attempt from another address: the count is the username's.
      failed(await login('mark@confab.test', 'wrong-1', newAddress()));
      failed(await login('MARK@confab.test', 'wrong-2', newAddress()));
      expectRateLimited(await login('mark@confab.test', DEV_PASSWORD, newAddress()), 1800);
      // Locked until the older failure is a whole window old, as the reference locks a name.
      ctx.clock.advance(600);
      expectRateLimited(await login('mark@confab.test', DEV_PASSWORD, newAddress()), 1200);
      ctx.clock.advance(1199);
      expectRateLimited(await login('mark@confab.test', DEV_PASSWORD, newAddress()), 1);
      ctx.clock.advance(1);
      assert.equal(expectSuccess(await login('mark@confab.test', DEV_PASSWORD, newAddress())).user_id, ctx.seed.users.mark.id);
      // A good login clears the count.
      failed(await login('mark@confab.test', 'wrong-3', newAddress()));
      failed(await login('mark@confab.test', 'wrong-4', newAddress()));
      expectRateLimited(await login('mark@confab.test', 'wrong-5', newAddress()), 1800);
    });

    it('refuses an address past its failed authentications, whatever credentials it then sends', async () => {
      const address = newAddress();
      const wrongKey = new ApiClient(ctx.app, ApiClient.basic('mona@confab.test', 'x'.repeat(32)));
      for (let i = 0; i < 4; i++) {
        expectError(await wrongKey.get('/users/me', {}, from(address)), 'Invalid API key', 'UNAUTHORIZED', 401);
      }
      expectRateLimited(await wrongKey.get('/users/me', {}, { ...from(address), undocumented: true }), 60);
      expectRateLimited(await ctx.as('mona').get('/users/me', {}, { ...from(address), undocumented: true }), 60);
      // Failed passwords count against the address too.
      expectRateLimited(await login('mona@confab.test', DEV_PASSWORD, address), 60);
      expectSuccess(await ctx.as('mona').get('/users/me', {}, from(newAddress())));
      ctx.clock.advance(60);
      expectSuccess(await ctx.as('mona').get('/users/me', {}, from(address)));
    });

    it('does not hold a good login against its address', async () => {
      const address = newAddress();
      expectSuccess(await login('maya@confab.test', DEV_PASSWORD, address));
      expectSuccess(await login('maya@confab.test', DEV_PASSWORD, address));
      // All four failures of the address are still to come.
      const wrongKey = new ApiClient(ctx.app, ApiClient.basic('maya@confab.test', 'x'.repeat(32)));
      for (let i = 0; i < 4; i++) {
        expectError(await wrongKey.get('/users/me', {}, from(address)), 'Invalid API key', 'UNAUTHORIZED', 401);
      }
      expectRateLimited(await wrongKey.get('/users/me', {}, { ...from(address), undocumented: true }), 60);
    });
  });
}

/** Like expectSuccess, but answers the whole response (for its headers). */
function expectSuccessful(res: ApiResponse): ApiResponse {
  expectSuccess(res);
  return res;
}

describe('rate limits with the default rules', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await setup('sqlite', { config: { rateLimits: true } });
  });
  after(() => ctx.close());
  beforeEach(() => ctx.clock.advance(86_400));

  it('answers 500 wrong passwords in a row with 429 after five, and then refuses the right one too', async () => {
    const statuses = new Map<number, number>();
    for (let i = 0; i < 500; i++) {
      const res = await ctx.anonymous().post('/fetch_api_key', { username: 'mona@confab.test', password: `guess-${i}` }, { undocumented: true });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(statuses), { 401: 5, 429: 495 });
    // A minute on, the address may ask again, but the username stays locked for the rest of the
    // half hour: five failures per 30 minutes, never more.
    const rightPassword = () => ctx.anonymous().post('/fetch_api_key', { username: 'mona@confab.test', password: DEV_PASSWORD }, { undocumented: true });
    ctx.clock.advance(60);
    expectRateLimited(await rightPassword(), 1740);
    ctx.clock.advance(1739);
    expectRateLimited(await rightPassword(), 1);
    ctx.clock.advance(1);
    expectSuccess(await rightPassword());
  });

  it('refuses the 201st request of a user within a minute, however the 200 before it were spread', async () => {
    const maya = ctx.as('maya');
    for (let i = 0; i < 200; i++) {
      const res = expectSuccessful(await maya.get('/users/me'));
      assert.equal(res.headers['x-ratelimit-remaining'], String(199 - i));
      ctx.clock.advance(0.25);
    }
    // 50 s after the first request.
    expectRateLimited(await maya.get('/users/me', {}, { undocumented: true }), 10);
    ctx.clock.advance(10);
    expectSuccess(await maya.get('/users/me'));
  });

  it('answers 500 wrong API keys in a row with 429 after thirty', async () => {
    const wrongKey = new ApiClient(ctx.app, ApiClient.basic('mona@confab.test', 'y'.repeat(32)));
    const statuses = new Map<number, number>();
    for (let i = 0; i < 500; i++) {
      const res = await wrongKey.get('/users/me', {}, { undocumented: true });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(statuses), { 401: 30, 429: 470 });
  });

  it('takes the client address from X-Forwarded-For only through a trusted proxy', async () => {
    // No proxy is trusted here: the socket's address counts, whatever the header says.
    const wrongKey = new ApiClient(ctx.app, ApiClient.basic('mark@confab.test', 'z'.repeat(32)));
    for (let i = 0; i < 30; i++) await wrongKey.get('/users/me', {}, { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    expectRateLimited(await wrongKey.get('/users/me', {}, { headers: { 'x-forwarded-for': '203.0.113.200' }, undocumented: true }), 60);
  });
});

describe('--rate-limits off', () => {
  it('is read from the flag and from CONFAB_RATE_LIMITS, and rules are checked', () => {
    assert.equal(loadConfig({}, {}).rateLimits, true);
    assert.equal(loadConfig({ 'rate-limits': 'off' }, {}).rateLimits, false);
    assert.equal(loadConfig({}, { CONFAB_RATE_LIMITS: 'off' }).rateLimits, false);
    assert.equal(loadConfig({ 'rate-limits': 'on' }, { CONFAB_RATE_LIMITS: 'off' }).rateLimits, true);
    const config = loadConfig({ 'rate-limit-user': '50/10', 'trusted-proxies': '10.0.0.0/8' }, { CONFAB_RATE_LIMIT_LOGIN: 'off' });
    assert.deepEqual(
      [config.rateLimitUser, config.rateLimitIp, config.rateLimitLogin, config.rateLimitAuthIp, config.trustedProxies],
      ['50/10', '100/60', 'off', '30/60', '10.0.0.0/8'],
    );
    assert.throws(() => loadConfig({ 'rate-limit-ip': '100 per minute' }, {}), {
      message: "A rate limit is REQUESTS/SECONDS (such as 200/60) or off, not '100 per minute'",
    });
    assert.throws(() => loadConfig({ 'rate-limit-ip': '0/60' }, {}));
  });

  it('turns every limit off', async () => {
    const ctx = await setup('sqlite', { config: { ...SMALL_LIMITS, rateLimits: false } });
    try {
      for (let i = 0; i < 10; i++) {
        const res = await ctx.as('mark').get('/users/me');
        expectSuccess(res);
        assert.equal(res.headers['x-ratelimit-limit'], undefined);
        expectSuccess(await ctx.anonymous().get('/server_settings'));
        expectError(await ctx.anonymous().post('/fetch_api_key', { username: 'mark@confab.test', password: 'no' }), 'Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);
      }
    } finally {
      await ctx.close();
    }
  });
});
