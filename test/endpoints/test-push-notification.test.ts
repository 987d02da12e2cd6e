import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BouncerPushTransport, type LogPushTransport, pushTransportFor, setPushTransport } from '../../src/adapters/push/index.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, TEST_URL, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

interface BouncerRequest {
  path: string;
  contentType: string;
  body: string;
}

/** The base payload every notification to the user carries in the dev realm. */
const expectedBasePayload = (ctx: TestContext, userId: number) => ({
  server: new URL(TEST_URL).host,
  realm_id: ctx.seed.realm.id,
  realm_name: 'Confab Dev',
  realm_uri: TEST_URL,
  realm_url: TEST_URL,
  user_id: userId,
});

/** A stand-in push bouncer on a free local port: remembers registrations, refuses unknown devices. */
async function fakeBouncer(): Promise<{ server: Server; url: string; requests: BouncerRequest[] }> {
  const requests: BouncerRequest[] = [];
  const known = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body });
      const reply = (status: number, answer: Record<string, unknown>) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      };
      if (req.url === '/api/v1/remotes/push/register') {
        const form = new URLSearchParams(body);
        known.add(`${form.get('token_kind')}:${form.get('token')}`);
        return reply(200, { result: 'success', msg: '' });
      }
      if (req.url === '/api/v1/remotes/push/test_notification') {
        const { token, token_kind } = JSON.parse(body);
        if (known.has(`${token_kind}:${token}`)) return reply(200, { result: 'success', msg: '' });
        return reply(400, { result: 'error', msg: 'Device not recognized by the push bouncer', code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN' });
      }
      return reply(500, { result: 'error', msg: 'Internal server error' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/`, requests };
}

for (const dialect of testDialects()) {
  describe(`POST /mobile_push/test_notification with the log transport [${dialect}]`, () => {
    let ctx: TestContext;
    let transport: LogPushTransport;
    before(async () => {
      ctx = await setup(dialect);
      transport = pushTransportFor(ctx.services) as LogPushTransport;
    });
    after(() => ctx.close());

    it('uses the log transport when no bouncer is configured', () => {
      assert.equal(transport.name, 'log');
    });

    it('sends the test notification to every device of the user, or to one', async () => {
      const { mark } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/android_gcm_reg_id', { token: 'phone' }));
      expectSuccess(await ctx.as('mark').post('/users/me/apns_device_token', { token: 'beef', appid: 'org.zulip.Zulip' }));
      expectSuccess(await ctx.as('mona').post('/users/me/android_gcm_reg_id', { token: 'monas-phone' }));
      transport.recent.length = 0;
      expectSuccess(await ctx.as('mark').post('/mobile_push/test_notification'));
      const base = expectedBasePayload(ctx, mark.id);
      assert.deepEqual(transport.recent, [
        {
          kind: 'test',
          device: { userId: mark.id, kind: 2, token: 'phone', iosAppId: null },
          payload: { ...base, event: 'test', time: Math.floor(ctx.clock.now()) },
        },
        {
          kind: 'test',
          device: { userId: mark.id, kind: 1, token: 'beef', iosAppId: 'org.zulip.Zulip' },
          payload: {
            alert: { title: 'Test notification', body: `This is a test notification from Confab Dev (${TEST_URL}).` },
            sound: 'default',
            custom: { zulip: { ...base, event: 'test' } },
          },
        },
      ]);
      transport.recent.length = 0;
      expectSuccess(await ctx.as('mark').post('/mobile_push/test_notification', { token: 'beef' }));
      assert.deepEqual(transport.recent.map((e) => e.device.token), ['beef']);
      // Another user's device is not the requester's.
      expectError(await ctx.as('mark').post('/mobile_push/test_notification', { token: 'monas-phone' }), 'Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN');
      expectError(await ctx.as('mark').post('/mobile_push/test_notification', { token: 'nope' }), 'Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN');
      expectError(await ctx.as('mark').post('/mobile_push/test_notification', { token: '' }), 'Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN');
      expectError(await ctx.as('mark').post('/mobile_push/test_notification', { token: 'ph\u0000one' }), 'Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN');
    });

    it('succeeds with nothing to send for a user without devices, and refuses bots', async () => {
      transport.recent.length = 0;
      expectSuccess(await ctx.as('milo').post('/mobile_push/test_notification'));
      assert.deepEqual(transport.recent, []);
      expectError(await ctx.as('welcomeBot').post('/mobile_push/test_notification'), 'This endpoint does not accept bot requests.');
    });
  });

  describe(`POST /mobile_push/test_notification through a push bouncer [${dialect}]`, () => {
    let ctx: TestContext;
    let bouncer: Awaited<ReturnType<typeof fakeBouncer>>;
    before(async () => {
      bouncer = await fakeBouncer();
      ctx = await setup(dialect, { config: { pushBouncerUrl: bouncer.url } });
    });
    after(async () => {
      await ctx.close();
      await new Promise((resolve) => bouncer.server.close(resolve));
    });

    it('registers devices with the bouncer and has it deliver the test notification', async () => {
      const { mark } = ctx.seed.users;
      assert.equal(pushTransportFor(ctx.services).name, 'bouncer');
      expectSuccess(await ctx.as('mark').post('/users/me/android_gcm_reg_id', { token: 'phone' }));
      assert.deepEqual(bouncer.requests.map((r) => [r.path, r.contentType, Object.fromEntries(new URLSearchParams(r.body))]), [
        ['/api/v1/remotes/push/register', 'application/x-www-form-urlencoded', { user_id: String(mark.id), token: 'phone', token_kind: '2' }],
      ]);
      bouncer.requests.length = 0;
      expectSuccess(await ctx.as('mark').post('/mobile_push/test_notification', { token: 'phone' }));
      assert.equal(bouncer.requests.length, 1);
      const request = bouncer.requests[0]!;
      assert.deepEqual([request.path, request.contentType], ['/api/v1/remotes/push/test_notification', 'application/json']);
      assert.deepEqual(JSON.parse(request.body), {
        user_id: mark.id,
        token: 'phone',
        token_kind: 2,
        base_payload: expectedBasePayload(ctx, mark.id),
      });
    });

    it('reports a device the bouncer does not know', async () => {
      const { mona } = ctx.seed.users;
      // Registered here while the bouncer never heard of it.
      await ctx.services.db
        .insertInto('push_device_token')
        .values({ user_id: mona.id, kind: 2, token: 'unknown-to-bouncer', ios_app_id: null, last_updated: 0 })
        .execute();
      expectError(
        await ctx.as('mona').post('/mobile_push/test_notification', { token: 'unknown-to-bouncer' }),
        'Device not recognized by the push bouncer',
        'INVALID_REMOTE_PUSH_DEVICE_TOKEN',
      );
      expectError(await ctx.as('mona').post('/mobile_push/test_notification'), 'Device not recognized by the push bouncer', 'INVALID_REMOTE_PUSH_DEVICE_TOKEN');
    });

    it('unregisters removed devices with the bouncer', async () => {
      bouncer.requests.length = 0;
      expectSuccess(await ctx.as('mark').delete('/users/me/android_gcm_reg_id', { token: 'phone' }));
      assert.deepEqual(bouncer.requests.map((r) => r.path), ['/api/v1/remotes/push/unregister']);
      expectError(await ctx.as('mark').post('/mobile_push/test_notification', { token: 'phone' }), 'Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN');
    });

    it('answers 502 when the bouncer cannot be reached', async () => {
      const { server, url } = await fakeBouncer();
      await new Promise((resolve) => server.close(resolve));
      setPushTransport(ctx.services, new BouncerPushTransport(url));
      expectSuccess(await ctx.as('milo').post('/users/me/android_gcm_reg_id', { token: 'offline' }));
      const res = await ctx.as('milo').post('/mobile_push/test_notification', {}, { undocumented: true });
      assert.deepEqual([res.status, res.body.msg], [502, 'Network error while connecting to the push notification service.']);
    });
  });
}
