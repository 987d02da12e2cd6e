// Event benchmarks: fan-out of message events to many long-polling clients, many idle long-polls
// held at once, and POST /register latency. Usage: npm run bench:events -- --data-dir DIR
import { setMaxListeners } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openStore, sqlitePathFor } from '../src/db/connect.js';
import { ensureCompiled, SERVER_NODE_FLAGS } from './lib/confab-build.js';
import { pool, register, runFanout } from './lib/fanout.js';
import { type Person, pickAudience, removeTopicMessages } from './lib/audience.js';
import { agent, call, percentile } from './lib/http-client.js';
import { measure } from './lib/load.js';
import { cpuMsOf, freePort, killAll, startProcess } from './lib/servers.js';
import { positiveInt, storeChoice } from './lib/store-options.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FANOUT_TOPIC = 'bench fan-out';
const log = (line: string) => console.error(line);

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, clients: { type: 'string' },
    'idle-polls': { type: 'string' }, seconds: { type: 'string' }, 'client-processes': { type: 'string' }, only: { type: 'string' },
    'cpu-prof': { type: 'string' }, 'node-flags': { type: 'string' }, help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log('Usage: npm run bench:events -- [--data-dir DIR | --database-url URL] [--clients 1000] [--idle-polls 10000] [--seconds 10] [--client-processes 2] [--only register|fanout|capacity] [--cpu-prof DIR] [--node-flags="FLAGS"]');
  console.log(`--node-flags: Confab's node flags (default "${SERVER_NODE_FLAGS.join(' ')}", as npm start)`);
  process.exit(0);
}
const choice = storeChoice(values['data-dir'], values['database-url']);
const clients = positiveInt('clients', values.clients, 1000);
const idlePolls = positiveInt('idle-polls', values['idle-polls'], 10_000);
const seconds = positiveInt('seconds', values.seconds, 10);
const clientProcesses = positiveInt('client-processes', values['client-processes'], 2);
const only = values.only;
const serverNodeFlags = values['node-flags'] === undefined ? SERVER_NODE_FLAGS : values['node-flags'].split(/\s+/).filter(Boolean);
if (only !== undefined && !['register', 'fanout', 'capacity'].includes(only)) throw new Error('--only takes register, fanout or capacity');
const runs = (part: string) => only === undefined || only === part;
/** Node flags that write a CPU profile of a server into its own folder under --cpu-prof. */
const profileFlags = (server: string) => (values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(values['cpu-prof'], server)}`] : []);

/** The stream with the most people, and its active human subscribers. */
async function pickBiggestAudience() {
  const store = choice.kind === 'sqlite' ? openStore({ sqlitePath: sqlitePathFor(choice.dataDir!) }) : openStore({ databaseUrl: choice.databaseUrl, poolSize: 2 });
  const { stream, people } = await pickAudience(store).finally(() => store.close());
  return { stream: stream.name, people };
}

async function removeFanoutMessages() {
  const store = choice.kind === 'sqlite' ? openStore({ sqlitePath: sqlitePathFor(choice.dataDir!) }) : openStore({ databaseUrl: choice.databaseUrl, poolSize: 2 });
  return removeTopicMessages(store, FANOUT_TOPIC).finally(() => store.close());
}

/** Sequential registers (no queueing behind each other), each for every state area: the latency of one POST /register. */
async function registerLatency(port: number, people: Person[], count: number, first = 0) {
  const times: number[] = [];
  for (let i = first; i < first + count; i++) {
    const person = people[i % people.length]!;
    const started = performance.now();
    // Until the whole answer has arrived: parsing some 600 KB of JSON is the client's time, not the server's.
    const { queueId, receivedAt } = await register(port, person);
    times.push(receivedAt - started);
    await call(port, 'DELETE', '/events', person.auth, { queue_id: queueId });
  }
  return times.sort((a, b) => a - b);
}

/** Fan-out at 1 and then 20 messages/s (bench/lib/fanout.ts), with the server's CPU time per message. */
async function fanout(port: number, stream: string, sender: Person, people: Person[], serverCpuMs: () => number) {
  const { results } = await runFanout({
    port, stream, topic: FANOUT_TOPIC, sender, people, rates: [1, 20], seconds, clientProcesses,
    meter: async () => {
      const before = serverCpuMs();
      return async () => serverCpuMs() - before;
    },
  });
  return results.map(({ rate, latencies, incomplete, sent, measured }) => {
    const cpuMsPerMessage = measured / sent;
    log(`fan-out at ${rate}/s: ${sent} messages, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ${incomplete} not delivered to all, server CPU ${cpuMsPerMessage.toFixed(1)} ms per message`);
    return { rate, latencies, incomplete, cpuMsPerMessage };
  });
}

/** Holds `count` idle long-polls and measures another route's latency with and without them. */
async function capacity(port: number, people: Person[], count: number, rssOf: () => number) {
  const probe = people[0]!;
  const spec = { title: 'GET /users/me', port, method: 'GET' as const, path: '/api/v1/users/me', headers: { authorization: probe.auth }, connections: 10, durationSeconds: seconds, warmupSeconds: 2 };
  const unloaded = await measure(spec);
  const rssBefore = rssOf();
  const queues = await pool(Array.from({ length: count }, (_, i) => people[i % people.length]!), 50, (person) => register(port, person, ['realm_emoji']));
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const polls = queues.map((queue, i) =>
    call(port, 'GET', '/events', people[i % people.length]!.auth, { queue_id: queue.queueId, last_event_id: queue.lastEventId }, stop.signal).catch(() => undefined),
  );
  await sleep(3000);
  const rssHeld = rssOf();
  const loaded = await measure(spec);
  stop.abort();
  await Promise.allSettled(polls);
  // Queues left behind would be saved at shutdown and restored by the next start.
  await pool(queues, 50, (queue, i) => call(port, 'DELETE', '/events', people[i % people.length]!.auth, { queue_id: queue.queueId }).catch(() => undefined));
  return { unloaded, loaded, rssBefore, rssHeld };
}

async function main() {
  const { stream, people } = await pickBiggestAudience();
  if (people.length < 2) throw new Error('the data set has no stream with subscribers');
  const sender = people[0]!;
  const audience = people.slice(1, clients + 1);
  log(`stream #${stream}: ${people.length} subscribers; ${audience.length} long-polling clients`);
  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 19);
  const loadBefore = loadavg()[0]!;
  // The same clients against the least a Node.js server can do for them, on this machine, now.
  let baselineFan: Awaited<ReturnType<typeof fanout>> = [];
  if (runs('fanout')) {
    const baselinePort = await freePort();
    const baseline = await startProcess({
      name: 'long-poll baseline', command: process.execPath, args: [...profileFlags('baseline'), join(ROOT, 'bench', 'longpoll-baseline.mjs'), String(baselinePort)],
      port: baselinePort, readyPath: '/api/v1/server_settings', logFile: join(resultsDir, `${stamp}-events-baseline.log`), cwd: ROOT,
    });
    try {
      log('fan-out against the bare Node.js long-poll baseline...');
      baselineFan = await fanout(baselinePort, stream, sender, audience, () => cpuMsOf(baseline.pid));
    } finally {
      await baseline.stop();
    }
  }
  const port = await freePort();
  const storeArgs = choice.kind === 'sqlite' ? ['--data-dir', choice.dataDir!] : ['--database-url', choice.databaseUrl!];
  const confab = await startProcess({
    name: 'confab', command: process.execPath,
    args: [...profileFlags('confab'), ...serverNodeFlags, ensureCompiled(ROOT, log), 'serve', ...storeArgs, '--rate-limits', 'off', '--host', '127.0.0.1', '--port', String(port), '--log-level', 'warn'],
    port, readyPath: '/api/v1/server_settings', logFile: join(resultsDir, `${stamp}-events-server.log`), cwd: ROOT,
  });
  try {
    // The first registers after a start also pay for new database connections, compiling the code
    // and filling caches; the next 200, for other people, show the server as it runs.
    const coldRegisters = runs('register') ? await registerLatency(port, people, 200) : [];
    const registers = runs('register') ? await registerLatency(port, people, 200, 200) : [];
    if (runs('register')) {
      log(`register, first 200 after start: p50 ${percentile(coldRegisters, 50).toFixed(1)} ms, p99 ${percentile(coldRegisters, 99).toFixed(1)} ms`);
      log(`register, next 200: p50 ${percentile(registers, 50).toFixed(1)} ms, p99 ${percentile(registers, 99).toFixed(1)} ms`);
    }
    const fan = runs('fanout') ? await fanout(port, stream, sender, audience, () => cpuMsOf(confab.pid)) : [];
    const cap = runs('capacity') ? await capacity(port, people, idlePolls, () => confab.memory()?.rssMb ?? NaN) : null;
    const lines = [
      `Confab event benchmarks ${stamp} (${choice.kind}; ${cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start)`,
      '',
      ...(runs('register')
        ? [
            `POST /register, first 200 after start   p50 ${percentile(coldRegisters, 50).toFixed(1)} ms  p99 ${percentile(coldRegisters, 99).toFixed(1)} ms`,
            `POST /register, next 200               p50 ${percentile(registers, 50).toFixed(1)} ms  p99 ${percentile(registers, 99).toFixed(1)} ms   target p99 <= 50 ms: ${percentile(registers, 99) <= 50 ? 'met' : 'NOT met'}`,
          ]
        : []),
      ...fan.flatMap((f, i) => {
        const base = baselineFan[i];
        // Issue 16's target: p99 no higher than the bare baseline's in the same run.
        const ratio = base ? percentile(f.latencies, 99) / percentile(base.latencies, 99) : NaN;
        return [
          `fan-out to ${audience.length} clients at ${String(f.rate).padStart(2)}/s    p50 ${percentile(f.latencies, 50).toFixed(1)} ms  p99 ${percentile(f.latencies, 99).toFixed(1)} ms   (${f.latencies.length} messages; ${f.incomplete} not delivered to all; server CPU ${f.cpuMsPerMessage.toFixed(0)} ms per message)`,
          ...(base
            ? [
                `  bare Node.js baseline at ${String(base.rate).padStart(2)}/s  p50 ${percentile(base.latencies, 50).toFixed(1)} ms  p99 ${percentile(base.latencies, 99).toFixed(1)} ms   (${base.incomplete} not delivered to all; server CPU ${base.cpuMsPerMessage.toFixed(0)} ms per message)`,
                `  fan-out ratio at ${String(f.rate).padStart(2)}/s: p99 ${ratio.toFixed(2)}x the baseline's   target <= 1.00x: ${ratio <= 1 && f.incomplete === 0 ? 'met' : 'NOT met'}`,
              ]
            : []),
        ];
      }),
      ...(cap
        ? [
            `${idlePolls} idle long-polls held         RSS ${cap.rssHeld.toFixed(0)} MB (before: ${cap.rssBefore.toFixed(0)} MB)   target <= 500 MB: ${cap.rssHeld <= 500 ? 'met' : 'NOT met'}`,
            `GET /users/me, 10 connections         p99 ${cap.loaded.p99.toFixed(2)} ms with the polls held, ${cap.unloaded.p99.toFixed(2)} ms without (${(cap.loaded.p99 / cap.unloaded.p99).toFixed(2)}x)   target <= 2x: ${cap.loaded.p99 <= 2 * cap.unloaded.p99 ? 'met' : 'NOT met'}`,
          ]
        : []),
    ];
    console.log(lines.join('\n'));
    writeFileSync(join(resultsDir, `${stamp}-events.json`), JSON.stringify({ date: new Date().toISOString(), store: choice.label, clients: audience.length, idlePolls, register: registers, coldRegister: coldRegisters, fanout: fan, baselineFanout: baselineFan, capacity: cap, report: lines }, null, 2) + '\n');
  } finally {
    await confab.stop();
    agent.destroy();
    log(`removed ${await removeFanoutMessages()} fan-out messages`);
  }
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});
main().catch((error) => {
  killAll();
  console.error(error);
  process.exit(1);
});
