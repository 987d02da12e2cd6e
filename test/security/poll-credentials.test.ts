// Polls and routes remember credentials between requests (src/http/credential-cache.ts). A change to the
// credentials or to their user or organization must count from the very next request, on every
// path: the poll answered before Fastify, the poll read straight from the socket, and any other
// route; whether the change came through the API or was written straight to the store, as the
// command line does from another process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { UserRow } from '../../src/db/schema.js';
import { DEV_PASSWORD, type DevUserName } from '../../src/dev-seed.js';
import { PollServer } from '../../src/http/event-poll.js';
import { ApiClient, type ApiResponse, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { queueSpec } from '../support/queue-spec.js';
import { type RawAnswer, rawRequest } from '../support/raw-http.js';

const unauthorized = (msg: string) => ({ status: 401, body: { result: 'error', msg, code: 'UNAUTHORIZED' } });

for (const dialect of testDialects()) {
  describe(`remembered poll credentials [${dialect}]`, () => {
    let ctx: TestContext;
    let port: number;
    before(async () => {
      ctx = await setup(dialect, { config: { heartbeatMinSeconds: 30, heartbeatMaxSeconds: 30 } });
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      port = (ctx.app.server.address() as AddressInfo).port;
    });
    after(() => ctx.close());

    const basic = (email: string, key: string) => ApiClient.basic(email, key);
    const userRow = (name: DevUserName) =>
      ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', ctx.seed.users[name].id).executeTakeFirstOrThrow();

    /** One GET on a new connection, so the raw path reads it first. */
    const rawGet = (target: string, authorization: string): Promise<RawAnswer> =>
      rawRequest(port, `GET /api/v1${target} HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${authorization}\r\n\r\n`);

    /** Polls through the server's request listener, through the raw socket path, and a normal route. */
    async function everyPath(authorization: string, queueId: string) {
      const client = new ApiClient(ctx.app, authorization);
      const poll = await client.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
      const raw = await rawGet(`/events?queue_id=${queueId}&last_event_id=-1&dont_block=true`, authorization);
      const route = await client.get('/users/me');
      const pick = (res: ApiResponse | RawAnswer) => ({ status: res.status, body: res.body });
      return { poll: pick(poll), raw: pick(raw), rawPath: raw.raw, route: pick(route) };
    }

    async function expectServed(authorization: string, queueId: string) {
      const answers = await everyPath(authorization, queueId);
      assert.deepEqual(answers.poll, { status: 200, body: { result: 'success', msg: '', events: [], queue_id: queueId } });
      assert.deepEqual(answers.raw, answers.poll);
      assert.equal(answers.rawPath, true);
      assert.equal(answers.route.status, 200);
    }

    async function expectRefused(authorization: string, queueId: string, msg: string) {
      const answers = await everyPath(authorization, queueId);
      assert.deepEqual(answers.poll, unauthorized(msg), 'poll');
      assert.deepEqual(answers.raw, unauthorized(msg), 'raw poll');
      assert.deepEqual(answers.route, unauthorized(msg), 'route');
    }

    /** A queue for `name`, polled once on every path so that the credentials are remembered. */
    async function polling(name: DevUserName): Promise<{ user: UserRow; queueId: string; authorization: string }> {
      const user = await userRow(name);
      const queue = await ctx.services.queues.create(queueSpec(user));
      const authorization = basic(user.delivery_email, user.api_key);
      await expectServed(authorization, queue.id);
      return { user, queueId: queue.id, authorization };
    }

    it('refuses a key rotated straight in the store at once, and takes the new one', async () => {
      const { user, queueId, authorization } = await polling('mark');
      const key = 'R'.repeat(32);
      await ctx.services.db.updateTable('user_profile').set({ api_key: key }).where('id', '=', user.id).execute();
      await expectRefused(authorization, queueId, 'Invalid API key');
      await expectServed(basic(user.delivery_email, key), queueId);
    });

    it('refuses a user deactivated straight in the store, or through the API, at once', async () => {
      const direct = await polling('mona');
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', direct.user.id).execute();
      await expectRefused(direct.authorization, direct.queueId, 'Account is deactivated');
      await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', direct.user.id).execute();
      await expectServed(direct.authorization, direct.queueId);

      const viaApi = await polling('milo');
      expectSuccess(await ctx.as('olivia').delete(`/users/${viaApi.user.id}`));
      await expectRefused(viaApi.authorization, viaApi.queueId, 'Account is deactivated');
      expectSuccess(await ctx.as('olivia').post(`/users/${viaApi.user.id}/reactivate`));
    });

    it('refuses the old email at once after an email change written to the store', async () => {
      const { user, queueId, authorization } = await polling('maya');
      const email = 'maya.new@confab.test';
      await ctx.services.db.updateTable('user_profile').set({ email, delivery_email: email }).where('id', '=', user.id).execute();
      try {
        await expectRefused(authorization, queueId, 'Invalid API key');
        await expectServed(basic(email, user.api_key), queueId);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ email: user.email, delivery_email: user.delivery_email }).where('id', '=', user.id).execute();
      }
    });

    it('keeps the key working across a password or role change, as the reference does, with the new role seen at once', async () => {
      const { user, queueId, authorization } = await polling('adam');
      expectSuccess(await new ApiClient(ctx.app, authorization).patch('/settings', { old_password: DEV_PASSWORD, new_password: 'a-new-password-1' }));
      await expectServed(authorization, queueId);
      await ctx.services.db.updateTable('user_profile').set({ role: 400 }).where('id', '=', user.id).execute();
      try {
        await expectServed(authorization, queueId);
        assert.equal(expectSuccess(await new ApiClient(ctx.app, authorization).get('/users/me')).role, 400);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ role: user.role }).where('id', '=', user.id).execute();
      }
    });

    it('refuses everyone at once in an organization deactivated straight in the store', async () => {
      const { queueId, authorization } = await polling('gus');
      const realmId = ctx.seed.realm.id;
      await ctx.services.db.updateTable('realm').set({ deactivated: 1 }).where('id', '=', realmId).execute();
      try {
        await expectRefused(authorization, queueId, 'This organization has been deactivated');
      } finally {
        await ctx.services.db.updateTable('realm').set({ deactivated: 0 }).where('id', '=', realmId).execute();
      }
      await expectServed(authorization, queueId);
    });

    if (dialect === 'sqlite') {
      it('answers a remembered poll within the call, as the SQLite counters are read at once', async () => {
        const polls = new PollServer(ctx.services);
        const user = await userRow('mark');
        const queue = await ctx.services.queues.create(queueSpec(user));
        const authorization = basic(user.delivery_email, user.api_key);
        const params = { queueId: queue.id, lastEventId: -1, dontBlock: true };
        const refusedFallback = () => assert.fail('handed on to the route');
        // The first poll checks the credentials in full, which takes a while.
        await new Promise<void>((resolve) => polls.handle(authorization, 'confab.test', params, { send: () => resolve(), onGone() {}, close() {} }, refusedFallback));
        const answers: string[] = [];
        polls.handle(authorization, 'confab.test', params, { send: (body) => answers.push(body), onGone() {}, close() {} }, refusedFallback);
        assert.equal(answers.length, 1);
      });

      it('refuses a key rotated by `confab api-key --rotate` in another process at once', async () => {
        const { user, queueId, authorization } = await polling('olivia');
        const { rows } = await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(ctx.services.db);
        const dataDir = dirname(rows.find((row) => row.name === 'main')!.file);
        const { stdout } = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'src/main.ts', 'api-key', '--email', user.delivery_email, '--rotate', '--data-dir', dataDir],
          { cwd: process.cwd() },
        );
        const key = stdout.trim();
        assert.equal(key.length, 32);
        await expectRefused(authorization, queueId, 'Invalid API key');
        await expectServed(basic(user.delivery_email, key), queueId);
      });
    }
  });
}
