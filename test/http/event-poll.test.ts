import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import inject from 'light-my-request';
import { onDisconnect, PollServer, withEventPolls } from '../../src/http/event-poll.js';
import { ApiClient, encodeParams, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { queueSpec } from '../support/queue-spec.js';

for (const dialect of testDialects()) {
  describe(`GET /events outside Fastify [${dialect}]`, () => {
    let ctx: TestContext;
    /** Requests the fast path handed on to Fastify. */
    let handedOn: string[];
    let handler: (req: IncomingMessage, res: ServerResponse) => void;

    before(async () => {
      ctx = await setup(dialect, { config: { heartbeatMinSeconds: 0.05, heartbeatMaxSeconds: 0.1 } });
      await ctx.app.ready();
      handler = withEventPolls(new PollServer(ctx.services), (req, res) => {
        handedOn.push(req.url!);
        ctx.app.routing(req, res);
      });
    });
    after(() => ctx.close());
    beforeEach(() => (handedOn = []));

    const call = async (who: 'mark' | 'mona' | 'milo', params: Record<string, unknown>, authorization?: string) => {
      const user = ctx.seed.users[who];
      const res = await inject(handler, {
        method: 'GET',
        url: `/api/v1/events?${encodeParams(params)}`,
        headers: { authorization: authorization ?? ApiClient.basic(user.delivery_email, user.api_key), host: 'confab.test' },
      });
      return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
    };

    it('answers a plain poll itself, as the route would', async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
      ctx.services.bus.publish([{ event: { type: 'alert_words', alert_words: ['soup'] }, users: [ctx.seed.users.mona.id] }]);
      const fast = await call('mona', { queue_id: queue.id, last_event_id: -1, dont_block: true });
      assert.deepEqual(handedOn, []);
      assert.equal(fast.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(fast.body, { result: 'success', msg: '', events: [{ type: 'alert_words', alert_words: ['soup'], id: 0 }], queue_id: queue.id });
      // A parameter outside the plain form sends the request through Fastify, with the same answer.
      const routed = await call('mona', { queue_id: queue.id, last_event_id: -1, dont_block: true, apply_markdown: true });
      assert.equal(handedOn.length, 1);
      assert.deepEqual(routed.body, fast.body);
    });

    it('hands every failing poll to the route, which answers it in full', async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
      const other = expectError(await call('mark', { queue_id: queue.id, last_event_id: -1 }), `Bad event queue ID: ${queue.id}`, 'BAD_EVENT_QUEUE_ID');
      assert.equal(other.queue_id, queue.id);
      expectError(await call('mona', { queue_id: queue.id, last_event_id: 'x' }), 'last_event_id is not valid JSON');
      expectError(await call('mona', { queue_id: queue.id, last_event_id: 3 }), 'Event 3 was not in this queue');
      expectError(await call('mona', { queue_id: queue.id, last_event_id: -1 }, ApiClient.basic('mona@confab.test', 'x'.repeat(32))), 'Invalid API key', 'UNAUTHORIZED', 401);
      assert.equal(handedOn.length, 4);
      // The queue was left as it was: a plain poll still works.
      assert.deepEqual(expectSuccess(await call('mona', { queue_id: queue.id, last_event_id: -1, dont_block: true })).events, []);
    });

    it('stops accepting credentials at once when their user is deactivated', async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.milo));
      expectSuccess(await call('milo', { queue_id: queue.id, last_event_id: -1, dont_block: true }));
      expectSuccess(await ctx.as('olivia').delete(`/users/${ctx.seed.users.milo.id}`));
      expectError(await call('milo', { queue_id: queue.id, last_event_id: -1, dont_block: true }), 'Account is deactivated', 'UNAUTHORIZED', 401);
      expectSuccess(await ctx.as('olivia').post(`/users/${ctx.seed.users.milo.id}/reactivate`));
    });

    it('checks remembered credentials against the store again after a while', async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mark));
      expectSuccess(await call('mark', { queue_id: queue.id, last_event_id: -1, dont_block: true }));
      // A key changed outside the server's events (the command line rotating it, say).
      const { mark } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ api_key: 'r'.repeat(32) }).where('id', '=', mark.id).execute();
      try {
        expectSuccess(await call('mark', { queue_id: queue.id, last_event_id: -1, dont_block: true }));
        ctx.clock.advance(16);
        expectError(await call('mark', { queue_id: queue.id, last_event_id: -1, dont_block: true }), 'Invalid API key', 'UNAUTHORIZED', 401);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ api_key: mark.api_key }).where('id', '=', mark.id).execute();
      }
    });
  });
}

describe('onDisconnect', () => {
  const response = () => new ServerResponse(new IncomingMessage(new Socket()));

  it('tells of a client that leaves before its answer, and of one that has already left', () => {
    const calls: string[] = [];
    const waiting = response();
    onDisconnect(waiting)(() => calls.push('later'));
    waiting.emit('close');
    const gone = response();
    gone.destroy();
    onDisconnect(gone)(() => calls.push('at once'));
    assert.deepEqual(calls, ['later', 'at once']);
  });
});
