// Poll connections read straight from the socket (src/http/raw-polls.ts), through real TCP
// connections to a listening server. Answers written there spell their header names capitalized
// ("Content-Type"); Node's HTTP server writes them as Confab gives them ("content-type"), which
// tells the two paths apart.
import assert from 'node:assert/strict';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PollHeadReader, parsePollHead } from '../../src/http/poll-head.js';
import { ApiClient } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { queueSpec } from '../support/queue-spec.js';
import { waitUntil } from '../support/wait.js';

interface Answer {
  head: string;
  status: number;
  body: any;
  /** Written by the raw path (capitalized header names). */
  raw: boolean;
}

/** A client on one kept-alive connection: writes bytes as given, reads answers in order. */
class Connection {
  private buffered = Buffer.alloc(0);
  private waiting: Array<(answer: Answer) => void> = [];
  private readonly ready: Array<Answer> = [];
  readonly closed: Promise<void>;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.parse();
    });
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    // A server that refuses a request may reset the connection while the client still writes.
    socket.on('error', () => {});
  }

  static async open(port: number): Promise<Connection> {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return new Connection(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  next(): Promise<Answer> {
    const answer = this.ready.shift();
    return answer ? Promise.resolve(answer) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private parse(): void {
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffered.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]);
      // Answers without a length (Node's refusals) are left to the test to read.
      if (!Number.isFinite(length) || this.buffered.length < end + 4 + length) return;
      const body = JSON.parse(this.buffered.toString('utf8', end + 4, end + 4 + length));
      this.buffered = this.buffered.subarray(end + 4 + length);
      const answer = { head, status: Number(head.slice(9, 12)), body, raw: head.includes('\r\nContent-Type: ') };
      const waiter = this.waiting.shift();
      if (waiter) waiter(answer);
      else this.ready.push(answer);
    }
  }
}

describe('poll connections read from the socket', () => {
  let ctx: TestContext;
  let port: number;
  let auth: string;
  before(async () => {
    ctx = await setup('sqlite', { config: { heartbeatMinSeconds: 30, heartbeatMaxSeconds: 30 } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
    const { mona } = ctx.seed.users;
    auth = ApiClient.basic(mona.delivery_email, mona.api_key);
  });
  after(() => ctx.close());

  const pollText = (queueId: string, lastEventId: number, extra = '') =>
    `GET /api/v1/events?queue_id=${queueId}&last_event_id=${lastEventId}${extra} HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${auth}\r\n\r\n`;
  const getText = (path: string) => `GET /api/v1${path} HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${auth}\r\n\r\n`;
  /** A new connection whose first request is a poll that does not wait. */
  const pollingConnection = async (queueId: string) => {
    const connection = await Connection.open(port);
    connection.write(pollText(queueId, -1, '&dont_block=true'));
    return connection;
  };
  const alertWords = (words: string[]) =>
    ctx.services.bus.publish([{ event: { type: 'alert_words', alert_words: words }, users: [ctx.seed.users.mona.id] }]);

  it('answers polls on the connection itself, waiting ones included, with the HTTP server\'s headers', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    const connection = await pollingConnection(queue.id);
    const first = await connection.next();
    assert.equal(first.raw, true);
    assert.match(first.head, /^HTTP\/1\.1 200 OK\r\nContent-Type: application\/json; charset=utf-8\r\nContent-Length: \d+\r\nDate: [A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=72$/);
    assert.deepEqual(first.body, { result: 'success', msg: '', events: [], queue_id: queue.id });
    connection.write(pollText(queue.id, -1));
    await waitUntil(() => ctx.services.queues.waitingPolls() === 1);
    alertWords(['soup']);
    const second = await connection.next();
    assert.equal(second.raw, true);
    assert.deepEqual(second.body.events, [{ type: 'alert_words', alert_words: ['soup'], id: 0 }]);
    connection.socket.destroy();
  });

  it('hands the connection to the HTTP server at the first other request, with every byte not yet answered', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    const connection = await Connection.open(port);
    // Three requests in one write: a poll, another endpoint, and a poll again.
    connection.write(pollText(queue.id, -1, '&dont_block=true') + getText('/users/me') + pollText(queue.id, -1, '&dont_block=true'));
    const [poll, me, after] = [await connection.next(), await connection.next(), await connection.next()];
    assert.equal(poll.raw, true);
    assert.equal(me.raw, false);
    assert.equal(me.body.email, ctx.seed.users.mona.email);
    // The connection now belongs to the HTTP server, whose own fast path answers the poll.
    assert.equal(after.raw, false);
    assert.deepEqual(after.body, poll.body);
    connection.socket.destroy();
  });

  it('reads a request that arrives a byte at a time', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    const connection = await Connection.open(port);
    for (const byte of pollText(queue.id, -1, '&dont_block=true')) {
      connection.write(byte);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answer = await connection.next();
    assert.equal(answer.raw, true);
    assert.equal(answer.body.queue_id, queue.id);
    connection.socket.destroy();
  });

  it('lets the route answer a failing poll in full, and the connection goes on', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mark));
    const connection = await pollingConnection(queue.id);
    const refused = await connection.next();
    assert.equal(refused.raw, false);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { result: 'error', msg: `Bad event queue ID: ${queue.id}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queue.id });
    connection.write(getText('/users/me'));
    assert.equal((await connection.next()).status, 200);
    connection.socket.destroy();
  });

  it('leaves a head past Node\'s size limit to the HTTP server, which refuses it', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    const connection = await Connection.open(port);
    let text = '';
    connection.socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    connection.write(pollText(queue.id, -1).replace('\r\n\r\n', `\r\nX-Padding: ${'p'.repeat(17 * 1024)}\r\n\r\n`));
    await connection.closed;
    assert.match(text, /^HTTP\/1\.1 431 /);
  });

  it('answers a head that takes longer than the server\'s headersTimeout with 408, as Node does', async () => {
    const { server } = ctx.app;
    const before = server.headersTimeout;
    server.headersTimeout = 150;
    try {
      const connection = await Connection.open(port);
      let text = '';
      connection.socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      connection.write('GET /api/v1/events?queue_id=');
      await connection.closed;
      assert.equal(text, 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    } finally {
      server.headersTimeout = before;
    }
  });

  /** The server's side of the next connection opened. */
  const serverSide = () => new Promise<Socket>((resolve) => ctx.app.server.once('connection', resolve));

  /** A figure once it stops changing for a while. */
  async function settled(read: () => number): Promise<number> {
    let last = -1;
    for (let i = 0; i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (read() === last) return last;
      last = read();
    }
    throw new Error(`still changing: ${last}`);
  }

  it('stops reading a client that keeps sending while its poll waits, and one that takes no answers', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    let accepted = serverSide();
    const sending = await Connection.open(port);
    let server = await accepted;
    sending.write(pollText(queue.id, -1));
    await waitUntil(() => ctx.services.queues.waitingPolls() === 1);
    const junk = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 512; i++) sending.socket.write(junk);
    // Of 32 MB sent, the server reads little more than a head's worth.
    assert.ok((await settled(() => server.bytesRead)) < 1024 * 1024, String(server.bytesRead));
    alertWords(['read']);
    assert.deepEqual((await sending.next()).body.events, [{ type: 'alert_words', alert_words: ['read'], id: 0 }]);
    // Then the rest is read, and Node's HTTP server refuses a head that never ends.
    await sending.closed;

    const idle = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    accepted = serverSide();
    const deaf = await Connection.open(port);
    server = await accepted;
    deaf.socket.pause();
    const hundred = pollText(idle.id, -1, '&dont_block=true').repeat(100);
    for (let i = 0; i < 1000; i++) deaf.socket.write(hundred);
    // Answers the client does not take stop the reading, rather than pile up in the server.
    await settled(() => server.bytesRead);
    assert.ok(server.writableLength < 1024 * 1024, String(server.writableLength));
    deaf.socket.resume();
    for (let i = 0; i < 100_000; i++) assert.equal((await deaf.next()).status, 200);
    deaf.socket.destroy();
  });

  it('survives clients that leave while their credentials are being checked', async () => {
    const { olivia, mark } = ctx.seed.users;
    const queue = await ctx.services.queues.create(queueSpec(olivia));
    for (const [user, queueId] of [[olivia, queue.id], [mark, queue.id]] as const) {
      const leaving = await Connection.open(port);
      // Credentials not seen before are checked against the store; the second poll then fails.
      leaving.write(pollText(queueId, -1).replace(auth, ApiClient.basic(user.delivery_email, user.api_key)));
      leaving.socket.destroy();
      await leaving.closed;
    }
    await waitUntil(() => ctx.services.queues.waitingPolls() === 0);
    const connection = await Connection.open(port);
    connection.write(getText('/users/me'));
    assert.equal((await connection.next()).status, 200);
    connection.socket.destroy();
  });

  it('hands on requests with a body, other methods and other protocol versions', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    const variants = [
      pollText(queue.id, -1, '&dont_block=true').replace('\r\n\r\n', '\r\nContent-Length: 0\r\n\r\n'),
      pollText(queue.id, -1, '&dont_block=true').replace('HTTP/1.1', 'HTTP/1.0').replace('\r\n\r\n', '\r\nConnection: keep-alive\r\n\r\n'),
      `POST /api/v1/register HTTP/1.1\r\nHost: confab.test\r\nAuthorization: ${auth}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 25\r\n\r\nevent_types=%5B%22x%22%5D`,
    ];
    for (const text of variants) {
      const connection = await Connection.open(port);
      connection.write(text);
      const answer = await connection.next();
      assert.equal(answer.raw, false, text);
      assert.equal(answer.status, 200, text);
      assert.equal(answer.body.result, 'success');
      connection.socket.destroy();
    }
  });

  it('drops a waiting poll when the client goes, and ends idle connections when the server closes', async () => {
    const queue = await ctx.services.queues.create(queueSpec(ctx.seed.users.mona));
    const leaving = await Connection.open(port);
    leaving.write(pollText(queue.id, -1));
    await waitUntil(() => ctx.services.queues.waitingPolls() === 1);
    leaving.socket.end();
    await waitUntil(() => ctx.services.queues.waitingPolls() === 0);

    const idle = await pollingConnection(queue.id);
    assert.equal((await idle.next()).raw, true);
    const waiting = await Connection.open(port);
    waiting.write(pollText(queue.id, -1));
    await waitUntil(() => ctx.services.queues.waitingPolls() === 1);
    // What the server does as it closes: idle connections end at once, the others after their answer.
    ctx.app.server.closeIdleConnections();
    await idle.closed;
    alertWords(['bye']);
    const last = await waiting.next();
    assert.equal(last.raw, true);
    assert.match(last.head, /\r\nConnection: close$/);
    assert.deepEqual(last.body.events, [{ type: 'alert_words', alert_words: ['bye'], id: 0 }]);
    await waiting.closed;
  });
});

describe('parsePollHead', () => {
  const poll = 'GET /api/v1/events?queue_id=q&last_event_id=-1 HTTP/1.1';
  it('takes a plain GET with credentials', () => {
    assert.deepEqual(parsePollHead(`${poll}\r\nHost: a.test\r\nAuthorization:  Basic eA== \r\nAccept: */*\r\nConnection: Keep-Alive`), {
      target: '/api/v1/events?queue_id=q&last_event_id=-1',
      authorization: 'Basic eA==',
      host: 'a.test',
    });
  });

  it('refuses anything unusual, for the HTTP server to judge', () => {
    const heads = [
      'GET /api/v1/events?queue_id=q HTTP/1.1\r\nHost: a.test',
      `${poll}\r\nAuthorization: x`,
      `${poll.replace('GET', 'get')}\r\nHost: a\r\nAuthorization: x`,
      `${poll.replace('HTTP/1.1', 'HTTP/1.0')}\r\nHost: a\r\nAuthorization: x`,
      `${poll}\r\nHost: a\r\nAuthorization: x\r\nAuthorization: y`,
      `${poll}\r\nAuthorization: x\r\nHost: a\r\nHost: b`,
      `${poll}\r\nHost: a\r\nAuthorization: x\r\nContent-Length: 0`,
      `${poll}\r\nHost: a\r\nAuthorization: x\r\nTransfer-Encoding: chunked`,
      `${poll}\r\nHost: a\r\nAuthorization: x\r\nConnection: close`,
      `${poll}\r\nHost: a\r\nAuthorization: x\r\nUpgrade: websocket`,
      `${poll}\r\nHost: a\r\nAuthorization: x\r\n folded`,
      `${poll}\r\nAuthorization: x\nHost: a`,
      `${poll}\r\nHost: a\r\nBad Name: x\r\nAuthorization: x`,
      `GET /api/v1/events?queue_id=\x01 HTTP/1.1\r\nHost: a\r\nAuthorization: x`,
    ];
    // Each of them is one change away from this, which is taken.
    assert.notEqual(parsePollHead(`${poll}\r\nHost: a\r\nAuthorization: x`), null);
    for (const head of heads) assert.equal(parsePollHead(head), null, JSON.stringify(head));
  });
});

describe('PollHeadReader', () => {
  const headers = '\r\nHost: a.test\r\nAuthorization: Basic eA==';
  const poll = (id: number) => `GET /api/v1/events?queue_id=q&last_event_id=${id} HTTP/1.1`;

  it('reads only the request line again while the header lines stay the same', () => {
    const reader = new PollHeadReader();
    assert.deepEqual(reader.read(poll(1) + headers), { target: '/api/v1/events?queue_id=q&last_event_id=1', authorization: 'Basic eA==', host: 'a.test' });
    assert.deepEqual(reader.read(poll(2) + headers), { target: '/api/v1/events?queue_id=q&last_event_id=2', authorization: 'Basic eA==', host: 'a.test' });
    // The same header lines do not make another method or version a poll.
    assert.equal(reader.read(poll(3).replace('GET', 'PUT') + headers), null);
    assert.equal(reader.read(poll(3).replace('HTTP/1.1', 'HTTP/1.0') + headers), null);
  });

  it('reads changed header lines in full, and keeps the last head it took', () => {
    const reader = new PollHeadReader();
    assert.notEqual(reader.read(poll(1) + headers), null);
    assert.equal(reader.read(`${poll(2)}${headers}\r\nContent-Length: 0`), null);
    assert.equal(reader.read(`${poll(2)}${headers}\r\nHost: b.test`), null);
    assert.deepEqual(reader.read(`${poll(2)}\r\nHost: b.test\r\nAuthorization: Basic eQ==`)?.host, 'b.test');
    assert.deepEqual(reader.read(`${poll(3)}\r\nHost: b.test\r\nAuthorization: Basic eQ==`)?.authorization, 'Basic eQ==');
    assert.deepEqual(reader.read(poll(4) + headers)?.authorization, 'Basic eA==');
  });
});
