// A cluster through Redis going away and coming back (a TCP proxy the test closes and opens, so
// the machine's Redis is untouched): readiness says so, messages are still taken and stored, and
// afterwards events flow again without a restart (queues that may have missed events while the
// subscription was cut are dropped, and their clients register again); a process that cannot look
// up which process holds a queue tells its client to retry rather than that the queue is gone. And
// `--workers`: one port, several processes, one queue reachable through any of them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DEV_PASSWORD } from '../../src/dev-seed.js';
import { startCluster, type TestCluster, TEST_REDIS_URL } from '../support/cluster.js';
import { freePort } from '../support/nginx.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const skip = !TEST_REDIS_URL && 'needs TEST_DATABASE_URL (and Redis at TEST_REDIS_URL)';

/** A request on a connection of its own (no keep-alive), so that each may reach another worker. */
function fresh(url: string, method: string, auth: string, body?: URLSearchParams): Promise<{ status: number; body: Record<string, unknown>; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: { authorization: auth, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || '{}'), retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
    req.end(body?.toString());
  });
}

async function apiKey(base: string, who: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: `${who}@confab.test`, password: DEV_PASSWORD }) });
  const key = ((await res.json()) as { api_key: string }).api_key;
  return `Basic ${Buffer.from(`${who}@confab.test:${key}`).toString('base64')}`;
}

/** Two members that reach Redis through a proxy the test can cut; set up before the suite's tests. */
function clusterBehindProxy(): { proxy: TcpProxy; cluster: TestCluster } {
  const parts = {} as { proxy: TcpProxy; cluster: TestCluster };
  before(async () => {
    const target = new URL(TEST_REDIS_URL!);
    parts.proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await parts.proxy.open();
    parts.cluster = await startCluster(2, [], { redisUrl: `redis://127.0.0.1:${parts.proxy.port}` });
  });
  after(async () => {
    // A test that failed while Redis was away leaves the proxy closed: the members need Redis to stop.
    if (parts.proxy && !parts.proxy.isOpen) await parts.proxy.open();
    await parts.cluster?.stop();
    await parts.proxy?.close();
  });
  return parts;
}

describe('Redis going away and coming back', { skip }, () => {
  const parts = clusterBehindProxy();

  it('reports itself unready, keeps taking messages, and delivers again once Redis is back', async () => {
    const { proxy, cluster } = parts;
    const [a, b] = cluster.members as [(typeof cluster.members)[0], (typeof cluster.members)[0]];
    const mark = await apiKey(a.url, 'mark');
    const mona = await apiKey(a.url, 'mona');
    const ready = async (url: string) => {
      const res = await fetch(`${url}/health/ready`);
      return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
    };
    assert.deepEqual(await ready(a.url), { status: 200, body: { status: 'ok', checks: { database: 'ok', redis: 'ok' } } });
    let queue = (await fresh(`${a.url}/api/v1/register`, 'POST', mark, new URLSearchParams({ event_types: '["message"]' }))).body as { queue_id: string; last_event_id: number };
    const send = (content: string) => fresh(`${b.url}/api/v1/messages`, 'POST', mona, new URLSearchParams({ type: 'stream', to: 'general', topic: 'outage', content }));

    await proxy.close();
    const away = await ready(a.url);
    assert.equal(away.status, 503);
    assert.equal(away.body.status, 'unavailable');
    assert.equal(away.body.checks.database, 'ok');
    assert.notEqual(away.body.checks.redis, 'ok');
    // The database is there: the message is taken and stored (rate limits let requests through).
    const during = await send('while Redis is away');
    assert.equal(during.status, 200);

    await proxy.open();
    const end = Date.now() + 15_000;
    while ((await ready(a.url)).status !== 200) {
      assert.ok(Date.now() < end, 'ready again within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const later = await send('after Redis came back');
    assert.equal(later.status, 200);
    // The queue either gets both messages or is dropped for a gap; a client registers again and goes on.
    // (Events travel through Redis after the send is answered: poll until something arrives.)
    let poll = await fresh(`${a.url}/api/v1/events?queue_id=${queue.queue_id}&last_event_id=${queue.last_event_id}&dont_block=true`, 'GET', mark);
    for (let i = 0; i < 50 && poll.status === 200 && (poll.body.events as unknown[]).length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      poll = await fresh(`${a.url}/api/v1/events?queue_id=${queue.queue_id}&last_event_id=${queue.last_event_id}&dont_block=true`, 'GET', mark);
    }
    if (poll.status === 400) {
      assert.equal(poll.body.code, 'BAD_EVENT_QUEUE_ID');
      queue = (await fresh(`${a.url}/api/v1/register`, 'POST', mark, new URLSearchParams({ event_types: '["message"]' }))).body as typeof queue;
      const next = await send('after registering again');
      const events = (await fresh(`${a.url}/api/v1/events?queue_id=${queue.queue_id}&last_event_id=${queue.last_event_id}`, 'GET', mark)).body.events as { message: { id: number } }[];
      assert.equal(events[0]!.message.id, next.body.id);
    } else {
      const ids = (poll.body.events as { message: { id: number } }[]).map((e) => e.message.id);
      assert.deepEqual(ids, [during.body.id, later.body.id]);
    }
  });
});

describe('Redis away while a queue is held by another process', { skip }, () => {
  const parts = clusterBehindProxy();

  it('tells clients to retry (503) rather than that their queue is gone, and serves the queue once Redis is back', async () => {
    const { proxy, cluster } = parts;
    const [a, b] = cluster.members as [(typeof cluster.members)[0], (typeof cluster.members)[0]];
    const mark = await apiKey(a.url, 'mark');
    const queue = (await fresh(`${a.url}/api/v1/register`, 'POST', mark, new URLSearchParams({ event_types: '["message"]' }))).body as { queue_id: string; last_event_id: number };
    const poll = `/api/v1/events?queue_id=${encodeURIComponent(queue.queue_id)}&last_event_id=${queue.last_event_id}&dont_block=true`;
    const expected = {
      status: 503,
      retryAfter: '5',
      body: { result: 'error', msg: 'The cluster cannot be reached (Redis is unavailable); try again later', code: 'CLUSTER_UNAVAILABLE', 'retry-after': 5 },
    };

    await proxy.close();
    // b does not hold the queue and cannot look up who does: neither BAD_EVENT_QUEUE_ID nor a 500.
    assert.deepEqual(await fresh(`${b.url}${poll}`, 'GET', mark), expected);
    // (In the query string: Node sends a DELETE's body without a length.)
    assert.deepEqual(await fresh(`${b.url}/api/v1/events?queue_id=${encodeURIComponent(queue.queue_id)}`, 'DELETE', mark), expected);

    await proxy.open();
    const end = Date.now() + 15_000;
    let through = await fresh(`${b.url}${poll}`, 'GET', mark);
    while (through.status === 503) {
      assert.ok(Date.now() < end, 'answered within 15 s of Redis coming back');
      await new Promise((resolve) => setTimeout(resolve, 100));
      through = await fresh(`${b.url}${poll}`, 'GET', mark);
    }
    assert.deepEqual(through, { status: 200, retryAfter: undefined, body: { result: 'success', msg: '', events: [], queue_id: queue.queue_id } });
  });
});

describe('confab serve --workers', { skip }, () => {
  let cluster: TestCluster;
  before(async () => (cluster = await startCluster(0)));
  after(() => cluster?.stop());

  it('runs several processes on one port, a queue reachable through each, and stops them all', async () => {
    const port = await freePort();
    const args = ['--import', 'tsx', 'src/main.ts', 'serve', '--workers', '2', '--port', String(port), '--dev', '--log-level', 'warn',
      '--database-url', cluster.databaseUrl, '--redis-url', TEST_REDIS_URL!, '--redis-prefix', cluster.redisPrefix, '--rate-limits', 'off'];
    const primary = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    for (const stream of [primary.stdout!, primary.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      const end = Date.now() + 60_000;
      while (!(await fetch(`${url}/health/ready`).then((r) => r.ok, () => false))) {
        assert.ok(Date.now() < end && primary.exitCode === null, output.join(''));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const mark = await apiKey(url, 'mark');
      const mona = await apiKey(url, 'mona');
      // New connections go to the workers in turn: queues made by both appear (their ids name their
      // process). The first worker may answer while the second is still starting on a busy machine.
      const queues: { queue_id: string; last_event_id: number }[] = [];
      const bothBy = Date.now() + 30_000;
      while (new Set(queues.map((q) => q.queue_id.split(':')[0])).size < 2 && Date.now() < bothBy) {
        const res = await fresh(`${url}/api/v1/register`, 'POST', mark, new URLSearchParams({ event_types: '["message"]' }));
        assert.equal(res.status, 200);
        queues.push(res.body as (typeof queues)[0]);
        if (queues.length >= 6) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.equal(new Set(queues.map((q) => q.queue_id.split(':')[0])).size, 2, 'both workers made queues');
      const sent = await fresh(`${url}/api/v1/messages`, 'POST', mona, new URLSearchParams({ type: 'stream', to: 'general', topic: 'workers', content: 'to every queue' }));
      for (const queue of queues) {
        const poll = await fresh(`${url}/api/v1/events?queue_id=${queue.queue_id}&last_event_id=${queue.last_event_id}`, 'GET', mark);
        assert.equal(poll.status, 200, JSON.stringify(poll.body));
        assert.equal((poll.body.events as { message: { id: number } }[])[0]!.message.id, sent.body.id);
      }
    } finally {
      primary.kill('SIGTERM');
    }
    assert.equal(await exited, 0, output.join(''));
  });
});
