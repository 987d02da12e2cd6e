// Three Confab processes on one PostgreSQL database and one Redis, with nginx round-robin in front
// (deploy/nginx-confab.conf): events cross processes in order, a queue is polled through any
// process, typing, presence and flags reach other processes' queues, a queue is deleted through
// another process, a graceful stop hands queues over without losing an event, and a kill -9 loses
// no acknowledged message while its clients register again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { type Member, startCluster, type TestCluster, TEST_REDIS_URL } from '../support/cluster.js';
import { type RunningNginx, startNginx } from '../support/nginx.js';

interface Answer {
  status: number;
  body: Record<string, unknown> & { events?: ZEvent[] };
}
interface ZEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

describe('three processes behind nginx', { skip: !TEST_REDIS_URL && 'needs TEST_DATABASE_URL (and Redis at TEST_REDIS_URL)' }, () => {
  let cluster: TestCluster;
  let nginx: RunningNginx;
  const keys = new Map<string, string>();

  before(async () => {
    cluster = await startCluster(3);
    nginx = await startNginx(cluster.members.map((m) => m.port));
    for (const who of ['mark', 'mona', 'milo']) {
      const res = await fetch(`${nginx.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: `${who}@confab.test`, password: DEV_PASSWORD }) });
      keys.set(who, ((await res.json()) as { api_key: string }).api_key);
    }
  });

  after(async () => {
    nginx?.stop();
    await cluster?.stop();
  });

  /** A request as `who` to `base` (a member's URL or nginx's). */
  async function call(base: string, who: string, method: string, path: string, params: Record<string, string> = {}): Promise<Answer> {
    const query = new URLSearchParams(params).toString();
    const inQuery = method === 'GET' || method === 'DELETE';
    const res = await fetch(`${base}/api/v1${path}${inQuery && query ? `?${query}` : ''}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${who}@confab.test:${keys.get(who)}`).toString('base64')}` },
      ...(inQuery ? {} : { body: new URLSearchParams(params) }),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  }

  interface Queue {
    queueId: string;
    last: number;
    /** Events received and not yet looked at, oldest first. */
    received: ZEvent[];
  }

  async function register(base: string, who: string, eventTypes: string[]): Promise<Queue> {
    const res = await call(base, who, 'POST', '/register', { event_types: JSON.stringify(eventTypes) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { queueId: String(res.body.queue_id), last: Number(res.body.last_event_id), received: [] };
  }

  /** The queue's next event of `type` (others, such as heartbeats, are passed over), polling through `base`. */
  async function next(base: string, who: string, queue: Queue, type: string): Promise<ZEvent> {
    for (let i = 0; i < 10; i++) {
      const index = queue.received.findIndex((e) => e.type === type);
      if (index >= 0) return queue.received.splice(0, index + 1).at(-1)!;
      queue.received.length = 0;
      const res = await call(base, who, 'GET', '/events', { queue_id: queue.queueId, last_event_id: String(queue.last), dont_block: 'false' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const events = res.body.events!;
      if (events.length > 0) queue.last = events.at(-1)!.id;
      queue.received.push(...events);
    }
    throw new Error(`no ${type} event`);
  }

  const send = (base: string, who: string, content: string, topic = 'cluster') =>
    call(base, who, 'POST', '/messages', { type: 'stream', to: 'general', topic, content });

  it('delivers a message sent through one process to queues held by the others', async () => {
    const [a, b, c] = cluster.members as [Member, Member, Member];
    const queues = await Promise.all([register(a.url, 'mark', ['message']), register(b.url, 'mona', ['message']), register(c.url, 'milo', ['message'])]);
    const sent = await send(b.url, 'mona', 'hello from the middle');
    assert.equal(sent.status, 200);
    const events = await Promise.all([next(a.url, 'mark', queues[0], 'message'), next(b.url, 'mona', queues[1], 'message'), next(c.url, 'milo', queues[2], 'message')]);
    for (const event of events) assert.equal((event.message as { id: number }).id, sent.body.id);
  });

  it('answers polls for one queue through every process in turn, in order, nothing lost', async () => {
    const queue = await register(nginx.url, 'mark', ['message']);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const member = cluster.members[i % 3]!;
      const sent = await send(cluster.members[(i + 1) % 3]!.url, 'mona', `in turn ${i}`);
      ids.push(Number(sent.body.id));
      const event = await next(member.url, 'mark', queue, 'message');
      assert.equal((event.message as { id: number }).id, ids[i]);
    }
    // And through the round-robin proxy, which picks the process.
    for (let i = 0; i < 3; i++) {
      const sent = await send(nginx.url, 'mona', `through the proxy ${i}`);
      assert.equal(((await next(nginx.url, 'mark', queue, 'message')).message as { id: number }).id, sent.body.id);
    }
  });

  it('carries typing, presence and flag changes to queues in other processes', async () => {
    const [a, b, c] = cluster.members as [Member, Member, Member];
    const queue = await register(a.url, 'mark', ['typing', 'presence', 'update_message_flags']);
    const markId = Number((await call(a.url, 'mark', 'GET', '/users/me')).body.user_id);
    assert.equal((await call(b.url, 'mona', 'POST', '/typing', { op: 'start', to: JSON.stringify([markId]) })).status, 200);
    const typing = await next(a.url, 'mark', queue, 'typing');
    assert.equal(typing.op, 'start');
    assert.equal((typing.sender as { email: string }).email, 'mona@confab.test');

    assert.equal((await call(c.url, 'mona', 'POST', '/users/me/presence', { status: 'active', new_user_input: 'true' })).status, 200);
    const presence = await next(a.url, 'mark', queue, 'presence');
    assert.equal(presence.email, 'mona@confab.test');

    const message = await send(c.url, 'mona', 'star me');
    assert.equal((await call(b.url, 'mark', 'POST', '/messages/flags', { messages: JSON.stringify([message.body.id]), op: 'add', flag: 'starred' })).status, 200);
    const flags = await next(c.url, 'mark', queue, 'update_message_flags');
    assert.deepEqual([flags.op, flags.flag, flags.messages], ['add', 'starred', [message.body.id]]);
  });

  it('deletes a queue through a process that does not hold it', async () => {
    const [a, b] = cluster.members as [Member, Member];
    const queue = await register(a.url, 'mark', ['message']);
    const deleted = await call(b.url, 'mark', 'DELETE', '/events', { queue_id: queue.queueId });
    assert.equal(deleted.status, 200);
    const poll = await call(a.url, 'mark', 'GET', '/events', { queue_id: queue.queueId, last_event_id: String(queue.last), dont_block: 'true' });
    assert.equal(poll.status, 400);
    assert.equal(poll.body.code, 'BAD_EVENT_QUEUE_ID');
  });

  it('hands a stopping process\'s queues to another, losing no event sent meanwhile', async () => {
    const a = cluster.members[0]!;
    const queue = await register(a.url, 'mark', ['message']);
    const stopped = new Promise((resolve) => a.process.once('exit', resolve));
    a.process.kill('SIGTERM');
    const during = await send(cluster.members[1]!.url, 'mona', 'while it stops');
    assert.equal(during.status, 200);
    await stopped;
    const after = await send(cluster.members[2]!.url, 'mona', 'after it stopped');
    const other = cluster.members[1]!;
    const first = await next(other.url, 'mark', queue, 'message');
    assert.equal((first.message as { id: number }).id, during.body.id);
    const second = await next(other.url, 'mark', queue, 'message');
    assert.equal((second.message as { id: number }).id, after.body.id);
  });

  it('loses no acknowledged message when a process is killed, and its clients register again', async () => {
    const victim = cluster.members[2]!;
    const survivor = cluster.members[1]!;
    const queue = await register(victim.url, 'mark', ['message']);
    const acknowledged: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await send(victim.url, 'mona', `before the kill ${i}`, 'kill');
      assert.equal(sent.status, 200);
      acknowledged.push(Number(sent.body.id));
    }
    victim.process.kill('SIGKILL');
    await new Promise((resolve) => victim.process.once('exit', resolve));
    const poll = await call(survivor.url, 'mark', 'GET', '/events', { queue_id: queue.queueId, last_event_id: String(queue.last), dont_block: 'true' });
    assert.equal(poll.status, 400);
    assert.equal(poll.body.code, 'BAD_EVENT_QUEUE_ID');
    const history = await call(survivor.url, 'mark', 'GET', '/messages', {
      anchor: 'newest', num_before: '20', num_after: '0', narrow: JSON.stringify([{ operator: 'topic', operand: 'kill' }]),
    });
    const stored = (history.body.messages as { id: number }[]).map((m) => m.id);
    for (const id of acknowledged) assert.ok(stored.includes(id), `message ${id} is stored`);
    // The client registers again and carries on.
    const fresh = await register(nginx.url, 'mark', ['message']);
    const sent = await send(nginx.url, 'mona', 'after the kill', 'kill');
    assert.equal(((await next(nginx.url, 'mark', fresh, 'message')).message as { id: number }).id, sent.body.id);
  });
});
