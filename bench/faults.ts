// npm run bench:faults [-- options]: kill -9 under many senders, and what it costs the senders.
// Each sender posts numbered messages, one at a time, each with an Idempotency-Key of its own, and
// retries a send whose answer it did not get (refused connection, reset, 502/503) with the same
// key until it is answered. Meanwhile the server process is killed with SIGKILL and started again
// on the same store, --kills times. Afterwards every message is read back: an acknowledged send
// that is missing is a loss, and a key stored twice is a duplicate. Both must be zero.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, HOST, killAll, runBench, startProcess, type RunningProcess } from './lib/servers.js';

const { values } = parseArgs({
  options: {
    senders: { type: 'string', default: '50' },
    kills: { type: 'string', default: '5' },
    'seconds-between': { type: 'string', default: '3' },
    'database-url': { type: 'string' },
    // The same run with no Idempotency-Key: shows what retries cost a client without one.
    'without-keys': { type: 'boolean', default: false },
  },
});
const senders = Number(values.senders);
const kills = Number(values.kills);
const between = Number(values['seconds-between']) * 1000;
const ENTRY = join(import.meta.dirname, '..', 'dist', 'confab.js');
const OWNER = 'owner@faults.test';

interface Tally {
  acked: Map<string, number>;
  retries: number;
  failedAnswers: Map<string, number>;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'confab-faults-'));
  const database = await storeArgs(dir);
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const cli = (...args: string[]) => execFileSync(process.execPath, [ENTRY, ...args, ...database.args], { encoding: 'utf8' });
  cli('create-realm', '--name', 'Faults', '--url', url, '--owner-email', OWNER, '--owner-name', 'Owner', '--owner-password', 'a long fault-run password');
  const apiKey = /([A-Za-z0-9]{32})/.exec(cli('api-key', '--email', OWNER, '--realm', url))![1]!;
  const auth = `Basic ${Buffer.from(`${OWNER}:${apiKey}`).toString('base64')}`;
  const start = () =>
    startProcess({
      name: 'confab', command: process.execPath, args: [ENTRY, 'serve', '--port', String(port), '--rate-limits', 'off', '--log-level', 'warn', ...database.args],
      port, readyPath: '/api/v1/server_settings', logFile: join(dir, 'server.log'), cwd: dir, settleMs: 0,
    });

  let server: RunningProcess = await start();
  const tally: Tally = { acked: new Map(), retries: 0, failedAnswers: new Map() };
  let stopping = false;
  const sendersDone = Array.from({ length: senders }, (_, s) => sender(s, url, auth, tally, () => stopping));
  const restarts: number[] = [];
  for (let kill = 0; kill < kills; kill++) {
    await new Promise((resolve) => setTimeout(resolve, between));
    process.kill(server.pid, 'SIGKILL');
    const killedAt = performance.now();
    server = await start();
    restarts.push(performance.now() - killedAt);
    console.log(`kill ${kill + 1}: answering again after ${restarts.at(-1)!.toFixed(0)} ms; ${tally.acked.size} sends acknowledged so far`);
  }
  await new Promise((resolve) => setTimeout(resolve, between));
  stopping = true;
  await Promise.all(sendersDone);

  const stored = await readBack(url, auth);
  const lost = [...tally.acked].filter(([key, id]) => stored.get(key)?.[0] !== id);
  const duplicated = [...stored].filter(([, ids]) => ids.length > 1);
  await server.stop();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });

  const keys = values['without-keys'] ? 'without Idempotency-Key' : 'with Idempotency-Key';
  console.log(`\n${database.name}, ${senders} senders ${keys}, ${kills} kills with SIGKILL, ${between / 1000} s apart`);
  console.log(`sends acknowledged      ${tally.acked.size}`);
  console.log(`retries                 ${tally.retries} (answers that failed: ${[...tally.failedAnswers].map(([what, n]) => `${what} x${n}`).join(', ') || 'none'})`);
  console.log(`restart to first answer ${restarts.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  console.log(`messages stored         ${[...stored.values()].reduce((n, ids) => n + ids.length, 0)}`);
  console.log(`lost (acknowledged, not stored)  ${lost.length}`);
  console.log(`duplicated (one key stored twice) ${duplicated.length}`);
  if (lost.length > 0 || (duplicated.length > 0 && !values['without-keys'])) process.exitCode = 1;
}

/** One sender: message after message, each retried with its key until it is answered. */
async function sender(index: number, url: string, auth: string, tally: Tally, stopping: () => boolean): Promise<void> {
  for (let n = 0; !stopping(); n++) {
    const key = `s${index}-m${n}`;
    for (;;) {
      const outcome = await send(url, auth, key);
      if (typeof outcome === 'number') {
        tally.acked.set(key, outcome);
        break;
      }
      tally.retries++;
      tally.failedAnswers.set(outcome, (tally.failedAnswers.get(outcome) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The stored message's id, or what went wrong. */
async function send(url: string, auth: string, key: string): Promise<number | string> {
  try {
    const response = await fetch(`${url}/api/v1/messages`, {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'application/x-www-form-urlencoded',
        ...(values['without-keys'] ? {} : { 'idempotency-key': key }),
      },
      body: new URLSearchParams({ type: 'private', to: JSON.stringify([OWNER]), content: key }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { id?: number; msg?: string };
    if (response.status === 200 && typeof body.id === 'number') return body.id;
    if (response.status >= 500) return `HTTP ${response.status}`;
    throw new Error(`send ${key} refused: ${response.status} ${body.msg}`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('send ')) throw error;
    return 'no answer';
  }
}

/** Every stored message, by content (the key), with its ids. */
async function readBack(url: string, auth: string): Promise<Map<string, number[]>> {
  const byKey = new Map<string, number[]>();
  let anchor = 'newest';
  for (;;) {
    const query = new URLSearchParams({ anchor, num_before: '1000', num_after: '0', include_anchor: 'false', apply_markdown: 'false' });
    const response = await fetch(`${url}/api/v1/messages?${query}`, { headers: { authorization: auth } });
    const body = (await response.json()) as { messages: Array<{ id: number; content: string }>; found_oldest: boolean };
    for (const message of body.messages) byKey.set(message.content, [...(byKey.get(message.content) ?? []), message.id]);
    if (body.found_oldest || body.messages.length === 0) return byKey;
    anchor = String(Math.min(...body.messages.map((m) => m.id)));
  }
}

/** The store: a fresh SQLite folder, or a fresh database on the given PostgreSQL server. */
async function storeArgs(dir: string): Promise<{ name: string; args: string[]; drop(): Promise<void> }> {
  const base = values['database-url'];
  if (!base) return { name: 'SQLite', args: ['--data-dir', join(dir, 'data')], drop: async () => {} };
  const name = `confab_faults_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const target = new URL(base);
  target.pathname = `/${name}`;
  return { name: 'PostgreSQL', args: ['--database-url', target.toString()], drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`) };
}

process.on('exit', killAll);
runBench(main);
