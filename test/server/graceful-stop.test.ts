// A graceful stop of a real server process under load: long-polling clients and senders on
// kept-alive connections go on through SIGTERM. The process must exit within its bound, save
// every queue with its events, and end waiting polls by closing their connections, never with an
// empty answer (on which clients would poll the stopping server again at once).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';

interface Answer {
  status: number;
  body: any;
}

/** One HTTP request; rejects when the connection fails or closes without an answer. */
function call(port: number, agent: Agent, method: string, path: string, auth: string | null, form?: Record<string, string>): Promise<Answer> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1${path}`,
        agent,
        headers: {
          ...(auth ? { authorization: auth } : {}),
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const STOP_BOUND_MS = 10_000;
const POLLERS = 20;
const SENDERS = 20;
const USERS = ['mona@confab.test', 'mark@confab.test', 'milo@confab.test', 'maya@confab.test'];

describe('stopping a server process under load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-stop-'));
  let child: ChildProcess | null = null;
  after(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits within its bound, saves every queue with its events, and closes waiting polls unanswered', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--dev', '--port', String(port), '--data-dir', dataDir], {
      env: { ...process.env, CONFAB_LOG_LEVEL: 'fatal' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Clients keep at it, as real ones do, until the process is gone.
    let running = true;
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child!.on('exit', (code) => {
        running = false;
        resolve({ code, at: Date.now() });
      }),
    );
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
    child.stdout!.resume();
    const setupAgent = new Agent({ keepAlive: true });
    // Up once it answers (seeding the dev organization comes first).
    for (let tries = 0; ; tries++) {
      try {
        await call(port, setupAgent, 'GET', '/server_settings', null);
        break;
      } catch (error) {
        if (tries > 600 || child.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const auths: string[] = [];
    for (const email of USERS) {
      const { body } = await call(port, setupAgent, 'POST', '/dev_fetch_api_key', null, { username: email });
      auths.push(`Basic ${Buffer.from(`${email}:${body.api_key}`).toString('base64')}`);
    }

    // Long-polling clients, each on a kept-alive connection of its own. Half register on it too,
    // so their polls are read by Node's HTTP server; the others' by the raw poll path.
    const emptyAnswers: Answer[] = [];
    const pollers = await Promise.all(
      Array.from({ length: POLLERS }, async (_, i) => {
        const auth = auths[i % auths.length]!;
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const { body } = await call(port, i % 2 === 0 ? agent : setupAgent, 'POST', '/register', auth, { event_types: '["message"]' });
        return { auth, queueId: body.queue_id as string, lastEventId: -1, received: new Set<number>(), agent };
      }),
    );
    const polling = pollers.map(async (poller) => {
      while (running) {
        let answer: Answer;
        try {
          answer = await call(port, poller.agent, 'GET', `/events?queue_id=${poller.queueId}&last_event_id=${poller.lastEventId}`, poller.auth);
        } catch {
          await pause(); // The connection closed unanswered: poll again.
          continue;
        }
        if (answer.status !== 200) {
          await pause();
          continue;
        }
        if (answer.body.events.length === 0) emptyAnswers.push(answer);
        for (const event of answer.body.events) {
          poller.lastEventId = event.id;
          if (event.type === 'message') poller.received.add(event.message.id);
        }
      }
    });

    // Senders, each on a kept-alive connection of its own, until the server stops answering.
    const sent = new Set<number>();
    const refusals: Answer[] = [];
    const sending = Array.from({ length: SENDERS }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let n = 0; running; n++) {
        let answer: Answer;
        try {
          answer = await call(port, agent, 'POST', '/messages', auths[i % auths.length]!, { type: 'stream', to: 'general', topic: `sender ${i}`, content: `message ${n}` });
        } catch {
          await pause();
          continue;
        }
        if (answer.status !== 200) {
          refusals.push(answer);
          await pause();
          continue;
        }
        sent.add(answer.body.id);
      }
    });

    const busyBy = Date.now() + 30_000;
    while (sent.size < 60) {
      assert.ok(Date.now() < busyBy && child.exitCode === null, `only ${sent.size} messages sent`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const { code, at } = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the server did not exit in time')), STOP_BOUND_MS + 5000)),
    ]);
    child = null;
    running = false;
    assert.equal(code, 0);
    assert.ok(at - signalledAt < STOP_BOUND_MS, `the stop took ${at - signalledAt} ms`);
    await Promise.all([...polling, ...sending]);

    assert.deepEqual(emptyAnswers, []);
    for (const refusal of refusals) {
      assert.deepEqual(refusal, {
        status: 503,
        body: { result: 'error', msg: 'The server is shutting down; try again shortly', code: 'SERVER_SHUTTING_DOWN', 'retry-after': 1 },
      });
    }

    // The next start finds every queue, and in it every message sent that the client had not received.
    const original = console.log;
    console.log = () => {};
    const server = await startServer(loadConfig({ port: '0', 'data-dir': dataDir, 'log-level': 'fatal', dev: true }, {})).finally(() => {
      console.log = original;
    });
    try {
      for (const poller of pollers) {
        assert.ok(server.services.queues.get(poller.queueId), `queue ${poller.queueId} was not saved`);
        const res = await fetch(`${server.url}/api/v1/events?queue_id=${poller.queueId}&last_event_id=${poller.lastEventId}&dont_block=true`, {
          headers: { authorization: poller.auth },
        });
        const body = (await res.json()) as { events: Array<{ type: string; message: { id: number } }> };
        assert.equal(res.status, 200, JSON.stringify(body));
        for (const event of body.events) poller.received.add(event.message.id);
        const missing = [...sent].filter((id) => !poller.received.has(id));
        assert.deepEqual(missing, [], `queue ${poller.queueId} lost messages`);
      }
    } finally {
      await server.stop();
    }
  });

  it('finishes requests under way, and answers one that arrives during the stop with 503 SERVER_SHUTTING_DOWN', async () => {
    const original = console.log;
    console.log = () => {};
    const server = await startServer(loadConfig({ port: '0', 'data-dir': dataDir, 'log-level': 'fatal', dev: true }, {})).finally(() => {
      console.log = original;
    });
    const { port } = server.app.server.address() as { port: number };
    const mona = await server.services.db.selectFrom('user_profile').selectAll().where('delivery_email', '=', 'mona@confab.test').executeTakeFirstOrThrow();
    const auth = `Basic ${Buffer.from(`mona@confab.test:${mona.api_key}`).toString('base64')}`;
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('error', () => {});
      const closed = new Promise((resolve) => socket.on('close', resolve));
      return { socket, text: () => text, closed };
    };
    // A message whose body is still arriving when the stop begins, and a request whose head is.
    const serverSides: Socket[] = [];
    server.app.server.on('connection', (socket: Socket) => serverSides.push(socket));
    const sending = await open();
    const form = 'type=stream&to=general&topic=stop&content=sent+during+the+stop';
    const sendingHead = `POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form.slice(0, 10)}`;
    sending.socket.write(sendingHead);
    const late = await open();
    const lateHead = 'GET /api/v1/server_settings HTTP/1.1\r\nHost: 127.0.0.1\r\n';
    late.socket.write(lateHead);
    // The stop begins once the server has read both, however long a busy machine takes.
    const readAll = () => serverSides.length === 2 && serverSides.map((socket) => socket.bytesRead).sort((a, b) => a - b).join() === [lateHead.length, sendingHead.length].sort((a, b) => a - b).join();
    while (!readAll()) await new Promise((resolve) => setTimeout(resolve, 5));
    const stopped = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    late.socket.write('\r\n');
    await late.closed;
    sending.socket.write(form.slice(10));
    await sending.closed;
    await stopped;

    const [head, body] = late.text().split('\r\n\r\n');
    assert.match(head!, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
    assert.match(head!, /\r\nretry-after: 1\r\n/i);
    assert.match(head!, /\r\nconnection: close\r\n/i);
    assert.deepEqual(JSON.parse(body!), { result: 'error', msg: 'The server is shutting down; try again shortly', code: 'SERVER_SHUTTING_DOWN', 'retry-after': 1 });
    assert.match(sending.text(), /^HTTP\/1\.1 200 OK\r\n[^]*"result":"success"/);
  });
});
