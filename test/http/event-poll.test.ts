import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import inject from 'light-my-request';
import { fullPollParams, onDisconnect, PollServer, simplePollParams, withEventPolls } from '../../src/http/event-poll.js';
import { ApiClient, encodeParams, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { queueSpec } from '../support/queue-spec.js';
import { createBot } from '../support/bots.js';

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

    it('hands an incoming-webhook bot to the route, which refuses it', async () => {
      const hook = await createBot(ctx, 'mark', 'pollhook', { bot_type: 2 });
      const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
      const queue = await ctx.services.queues.create(queueSpec(row));
      const params = { queue_id: queue.id, last_event_id: -1, dont_block: true };
      const authorization = ApiClient.basic(hook.email, hook.apiKey);
      // Twice: the first poll checks the credentials in full, the second finds them remembered.
      for (let i = 0; i < 2; i++) {
        const res = await call('mark', params, authorization);
        expectError(res, 'This API is not available to incoming webhook bots.', 'UNAUTHORIZED', 401);
      }
      assert.equal(handedOn.length, 2);
    });

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

    it('refuses remembered credentials at once after a change written straight to the store', async () => {
      const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mark));
      expectSuccess(await call('mark', { queue_id: queue.id, last_event_id: -1, dont_block: true }));
      // A key changed outside the server's events (the command line rotating it, say).
      const { mark } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ api_key: 'r'.repeat(32) }).where('id', '=', mark.id).execute();
      try {
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

describe('reading a plain poll\'s parameters', () => {
  it('reads the usual spelling directly, and leaves every other spelling to the full reading', () => {
    assert.deepEqual(simplePollParams('queue_id=1-a.b&last_event_id=-1'), { queueId: '1-a.b', lastEventId: -1, dontBlock: false });
    assert.deepEqual(simplePollParams('dont_block=true&last_event_id=12&queue_id=q'), { queueId: 'q', lastEventId: 12, dontBlock: true });
    for (const query of ['queue_id=q', 'queue_id=q&last_event_id=1&queue_id=r', 'queue_id=%71&last_event_id=1', 'queue_id=q&last_event_id=01', 'queue_id=q&last_event_id=1&', 'queue_id=q&last_event_id=1e2']) {
      assert.equal(simplePollParams(query), null, query);
    }
    // The full reading takes some of those as the route does.
    assert.deepEqual(fullPollParams('queue_id=%71&last_event_id=1e2'), { queueId: 'q', lastEventId: 100, dontBlock: false });
    assert.deepEqual(fullPollParams('queue_id=q&last_event_id=1&queue_id=r'), { queueId: 'r', lastEventId: 1, dontBlock: false });
    assert.equal(fullPollParams('queue_id=q&last_event_id=x'), null);
  });

  it('never reads a query differently from the full reading (seeded random queries)', () => {
    let seed = 229;
    /** mulberry32: a small seeded generator, so a failure repeats. */
    const next = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const keys = ['queue_id', 'last_event_id', 'dont_block', 'other', '', 'queue_id=', 'Queue_id'];
    const values = ['q', 'a-b.c:d~e', '', '0', '-0', '-1', '7', '007', '1.0', '1e2', '123456789012345', '1234567890123456', 'true', 'false', 'True', '%41', 'a+b', '"x"', 'x y', '=', '-'];
    const pick = <T>(list: readonly T[]) => list[next(list.length)]!;
    let direct = 0;
    for (let i = 0; i < 3000; i++) {
      // Mostly the two names a poll needs, sometimes more, in any order.
      const pairs = [`queue_id=${pick(values)}`, `last_event_id=${pick(values)}`];
      for (let extra = next(3); extra > 0; extra--) pairs.push(next(10) === 0 ? pick(keys) : `${pick(keys)}=${pick(values)}`);
      for (let j = pairs.length - 1; j > 0; j--) {
        const k = next(j + 1);
        [pairs[j], pairs[k]] = [pairs[k]!, pairs[j]!];
      }
      const query = pairs.join('&');
      const simple = simplePollParams(query);
      if (simple === null) continue;
      direct++;
      assert.deepEqual(simple, fullPollParams(query), query);
    }
    assert.ok(direct > 100, `only ${direct} queries took the direct reading`);
  });
});
