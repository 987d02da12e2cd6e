// Node's limits on slow requests hold on every connection, over real sockets: a body that trickles
// in is cut off, a head Node refuses is refused at once, and waiting polls are left alone.
import assert from 'node:assert/strict';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { ApiClient } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { queueSpec } from '../support/queue-spec.js';
import { waitUntil } from '../support/wait.js';

/** Everything the server writes on one connection, until it closes it. */
async function open(port: number): Promise<{ socket: Socket; text: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, text: () => text, closed };
}

/** Fails if `closed` takes longer than `ms` (a generous bound; the limits under test are far shorter). */
function within(closed: Promise<void>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms)));
  return Promise.race([closed, late]).finally(() => clearTimeout(timer));
}

describe('slow requests over real sockets', () => {
  let ctx: TestContext;
  /** An app whose requests may take at most 300 ms to arrive. */
  let strict: FastifyInstance;
  let strictPort: number;
  let port: number;
  let auth: string;
  before(async () => {
    ctx = await setup('sqlite', { config: { heartbeatMinSeconds: 30, heartbeatMaxSeconds: 30 } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
    strict = await buildApp(ctx.services, { requestTimeout: 300 });
    await strict.listen({ host: '127.0.0.1', port: 0 });
    strictPort = (strict.server.address() as AddressInfo).port;
    const { mona } = ctx.seed.users;
    auth = ApiClient.basic(mona.delivery_email, mona.api_key);
  });
  after(async () => {
    await strict.close();
    await ctx.close();
  });

  it('keeps Node\'s limits by default: 5 minutes for a request, 1 minute for its head', () => {
    assert.equal(ctx.app.server.requestTimeout, 300_000);
    assert.equal(ctx.app.server.headersTimeout, 60_000);
  });

  it('answers 408 to a body sent a byte at a time past the request timeout', async () => {
    const conn = await open(strictPort);
    conn.socket.write(`POST /api/v1/messages HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${auth}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n`);
    const trickle = setInterval(() => conn.socket.writable && conn.socket.write('a'), 100);
    try {
      await within(conn.closed, 5000, 'a trickling body');
    } finally {
      clearInterval(trickle);
    }
    assert.match(conn.text(), /^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  // Fastify writes the body of the HTTP server's refusal (its clientError handler).
  const REFUSAL = 'HTTP/1.1 400 Bad Request\r\nContent-Length: 65\r\nContent-Type: application/json\r\n\r\n{"error":"Bad Request","message":"Client Error","statusCode":400}';

  it('answers a bare-LF request on a fresh connection at once with the HTTP server\'s 400', async () => {
    const conn = await open(port);
    conn.socket.write('GET / HTTP/1.1\nHost: x\n\n');
    await within(conn.closed, 5000, 'a bare-LF request');
    assert.equal(conn.text(), REFUSAL);
  });

  it('hands a poll head with a bare LF to Node at once too', async () => {
    const conn = await open(port);
    conn.socket.write('GET /api/v1/events?queue_id=x&last_event_id=-1 HTTP/1.1\nHost: x\n\n');
    await within(conn.closed, 5000, 'a bare-LF poll');
    assert.equal(conn.text(), REFUSAL);
  });

  it('lets polls wait for events longer than the request timeout, on both paths', async () => {
    const mona = ctx.seed.users.mona;
    const poll = (queueId: string) =>
      `GET /api/v1/events?queue_id=${queueId}&last_event_id=-1 HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${auth}\r\n\r\n`;
    // The first connection's poll is read from the socket; the second's, after another request, by Node.
    const direct = await open(strictPort);
    const viaNode = await open(strictPort);
    const first = await ctx.services.queues.create(queueSpec(mona));
    const second = await ctx.services.queues.create(queueSpec(mona));
    direct.socket.write(poll(first.id));
    viaNode.socket.write(`GET /api/v1/users/me HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${auth}\r\n\r\n`);
    await waitUntil(() => viaNode.text().includes('"result":"success"'));
    viaNode.socket.write(poll(second.id));
    await waitUntil(() => ctx.services.queues.waitingPolls() === 2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    ctx.services.bus.publish([{ event: { type: 'alert_words', alert_words: ['late'] }, users: [mona.id] }]);
    await waitUntil(() => direct.text().includes('"late"') && viaNode.text().split('"late"').length === 2);
    assert.match(direct.text(), /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(viaNode.text(), /HTTP\/1\.1 200 OK\r\n[^]*HTTP\/1\.1 200 OK\r\n/);
    direct.socket.destroy();
    viaNode.socket.destroy();
  });
});
