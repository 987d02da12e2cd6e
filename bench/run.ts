// npm run bench [-- --data-dir DIR | --database-url postgres://...] [--duration S]
// Starts a bare Fastify baseline and Confab on a built data set (one child process each, on
// 127.0.0.1 only), loads them with autocannon, prints a table with every figure and its ratio to
// the baseline, and writes the results to bench/results/<date>.json.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openStore, sqlitePathFor } from '../src/db/connect.js';
import { COMMON_SEARCH_WORD, DOMAIN_WORDS } from './lib/text.js';
import { ensureCompiled, SERVER_NODE_FLAGS } from './lib/confab-build.js';
import { type BenchTargets, discoverTargets, removeSentMessages, sendBody } from './lib/discover.js';
import { type LoadResult, type LoadSpec, measure } from './lib/load.js';
import { LOOP_PROBE_FLAGS, worstLoopDelay } from './lib/loop-delay.js';
import { formatMarkdown, formatTable, loadRow, processRow, type Row } from './lib/report.js';
import { cpuMsOf, environmentNotes, freePort, probe, runBench, type RunningProcess, startProcess } from './lib/servers.js';
import { positiveInt, storeChoice } from './lib/store-options.js';
import { MAX_SEARCH_WORDS } from '../src/lib/limits.js';
import type { Store } from '../src/db/connect.js';
import { soakFreshServer } from './lib/soak.js';

/** Long-polling queues in the soak, as in the issue's row. */
const SOAK_QUEUES = 200;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: npm run bench -- [options]
  --data-dir DIR          the built SQLite data set (default data/bench)
  --database-url URL      a data set built into PostgreSQL instead
  --duration S            seconds per measurement (default 10), after --warmup S (default 2)
  --read-connections L    connection counts for the read routes (default 1,10,50)
  --send-connections N    connections for POST /messages (default 50)
  --search-word W         word for the search narrow (default "${COMMON_SEARCH_WORD}")
  --server dist|tsx       run Confab compiled (default; rebuilt when src/ changed) or through tsx
  --cpu-prof DIR          write a V8 CPU profile of the Confab process into DIR
  --only sends            only the send figure (and the process rows), for short comparisons
  --soak S                then, on a fresh start, 200 long-polling queues under 5 sends and 5 fetches
                          a second for S seconds (600 for the issue's row; default 0: none)
  --keep-sent             keep the messages the send benchmark wrote (default: delete them after)
  --log-level LEVEL       Confab's log level during the run (default warn)
  --node-flags="FLAGS"    Confab's node flags (default "${SERVER_NODE_FLAGS.join(' ')}", as npm start)`;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, duration: { type: 'string' },
      warmup: { type: 'string' }, 'read-connections': { type: 'string' }, 'send-connections': { type: 'string' },
      'search-word': { type: 'string' }, server: { type: 'string' }, 'cpu-prof': { type: 'string' },
      'keep-sent': { type: 'boolean' }, only: { type: 'string' }, soak: { type: 'string' }, 'log-level': { type: 'string' }, 'node-flags': { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const choice = storeChoice(values['data-dir'], values['database-url']);
  const duration = positiveInt('duration', values.duration, 10);
  const warmup = values.warmup === '0' ? 0 : positiveInt('warmup', values.warmup, 2);
  if (values.only !== undefined && values.only !== 'sends') throw new Error(`--only: expected "sends", not ${values.only}`);
  const readConnections = (values['read-connections'] ?? '1,10,50').split(',').map((c) => positiveInt('read-connections', c, 1));
  const sendConnections = positiveInt('send-connections', values['send-connections'], 50);
  const soakSeconds = values.soak === undefined ? 0 : positiveInt('soak', values.soak, 0);
  const serverMode = values.server ?? 'dist';
  if (serverMode !== 'dist' && serverMode !== 'tsx') throw new Error('--server must be dist or tsx');
  if (choice.kind === 'sqlite' && !existsSync(join(choice.dataDir!, 'confab.db'))) {
    throw new Error(`no data set in ${choice.dataDir}: build one with npm run bench:data -- --data-dir ${choice.dataDir}`);
  }

  const openBenchStore = () =>
    choice.kind === 'sqlite' ? openStore({ sqlitePath: sqlitePathFor(choice.dataDir!) }) : openStore({ databaseUrl: choice.databaseUrl, poolSize: 2 });
  let store = openBenchStore();
  const targets = await discoverTargets(store, values['search-word'] ?? COMMON_SEARCH_WORD).finally(() => store.close());
  log(`data set: ${targets.dataSet.messages.toLocaleString('en')} messages, ${targets.dataSet.userMessages.toLocaleString('en')} user_message rows`);
  log(`user ${targets.user.email} (${targets.user.subscriptions} subscriptions, ${targets.user.userMessages.toLocaleString('en')} messages received)`);
  log(`send to #${targets.sendStream.name} (${targets.sendStream.subscribers} subscribers); fetch #${targets.topic.streamName} > ${targets.topic.topic} (${targets.topic.messages} messages); search "${targets.searchWord}" (${targets.searchMatches} matches)`);

  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 19);
  const logFile = join(resultsDir, `${stamp}-servers.log`);
  const loadBefore = loadavg();
  const spec = (title: string, port: number, connections: number, rest: Partial<LoadSpec>): LoadSpec => ({
    title, port, method: 'GET', path: '/', connections, durationSeconds: duration, warmupSeconds: warmup, ...rest,
  });

  // The baseline: a bare Fastify JSON route, at every connection count used below.
  const baselinePort = await freePort();
  const baseline = await startProcess({
    name: 'baseline', command: process.execPath, args: [join(ROOT, 'bench', 'baseline-server.mjs'), String(baselinePort)],
    port: baselinePort, readyPath: '/baseline', logFile, cwd: ROOT,
  });
  const baselineLoads = new Map<number, LoadResult>();
  for (const connections of [...new Set([...readConnections, sendConnections])].sort((a, b) => a - b)) {
    log(`baseline, ${connections} connections...`);
    baselineLoads.set(connections, await measure(spec('baseline GET (bare Fastify)', baselinePort, connections, { path: '/baseline' })));
  }
  const baselinePeak = baseline.memory()?.peakRssMb ?? NaN;
  await baseline.stop();

  // Confab on the data set.
  const port = await freePort();
  const nodeFlags = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(values['cpu-prof'])}`] : [];
  // The server process notes its event-loop delay (bench/lib/loop-probe.mjs) into this file.
  const loopFile = join(resultsDir, `${stamp}-loop-delay.log`);
  process.env.BENCH_LOOP_DELAY_FILE = loopFile;
  nodeFlags.push(...LOOP_PROBE_FLAGS);
  const serverNodeFlags = values['node-flags'] === undefined ? SERVER_NODE_FLAGS : values['node-flags'].split(/\s+/).filter(Boolean);
  const entry = serverMode === 'dist' ? [...serverNodeFlags, ensureCompiled(ROOT, log)] : ['--import', 'tsx', join(ROOT, 'src', 'main.ts')];
  const storeArgs = choice.kind === 'sqlite' ? ['--data-dir', choice.dataDir!] : ['--database-url', choice.databaseUrl!];
  // Rate limits off: the load generators go far past any per-user limit on purpose.
  const startConfab = (on: number) => startProcess({
    name: 'confab', command: process.execPath,
    args: [...nodeFlags, ...entry, 'serve', ...storeArgs, '--rate-limits', 'off', '--host', '127.0.0.1', '--port', String(on), '--log-level', values['log-level'] ?? 'warn'],
    port: on, readyPath: '/api/v1/server_settings', logFile, cwd: ROOT,
  });
  const confab = await startConfab(port);
  log(`confab answered after ${confab.startupMs.toFixed(0)} ms, idle RSS ${confab.idleRssMb.toFixed(1)} MB`);
  const auth = { authorization: `Basic ${Buffer.from(`${targets.user.email}:${targets.user.apiKey}`).toString('base64')}` };
  const notes: string[] = environmentNotes();
  const rows: Row[] = [];
  const loads: Record<string, LoadResult> = {};
  let confabPeak = NaN;
  const scenario: ScenarioContext = {
    readConnections, sendConnections, spec, baselineLoads, rows, loads, notes, loopFile, sendsOnly: values.only === 'sends', pid: confab.pid,
  };
  try {
    await runScenarios(targets, port, auth, scenario);
  } finally {
    confabPeak = confab.memory()?.peakRssMb ?? NaN;
    await confab.stop();
  }

  rows.push(
    processRow('idle RSS after start', confab.idleRssMb, 'MB', baseline.idleRssMb, { text: '<= 80 MB', met: confab.idleRssMb <= 80 }),
    processRow('start to first request', confab.startupMs, 'ms', baseline.startupMs, { text: '<= 500 ms', met: confab.startupMs <= 500 }),
    // CPU time to the first answer moves less than the wall clock when other work shares the cores.
    { ...processRow('CPU time to first request', confab.startupCpuMs, 'ms', baseline.startupCpuMs, { text: '', met: true }), target: null, met: null },
    { ...processRow('peak RSS during the run', confabPeak, 'MB', baselinePeak, { text: '', met: true }), target: null, met: null },
  );
  rows.unshift(...[...baselineLoads.values()].map((b) => loadRow('baseline GET (bare Fastify)', b, b)));
  if (soakSeconds > 0) rows.push(await soakRow(async () => startConfab(await freePort()), openBenchStore, soakSeconds, baseline.idleRssMb));

  if (!values['keep-sent']) {
    store = openBenchStore();
    const removed = await removeSentMessages(store, targets).finally(() => store.close());
    log(`removed the ${removed} messages the send benchmark wrote`);
    // What a send costs the server, whatever share of the cores it got: a busy machine moves this less.
    if (scenario.sendCpuMs !== undefined && removed > 0) {
      const perMessage = scenario.sendCpuMs / removed;
      rows.push({ ...processRow('server CPU per stored message, send run', perMessage, 'ms', NaN, { text: '', met: true }), target: null, met: null });
    }
  }

  const table = formatTable(rows);
  console.log(`\nConfab benchmark ${stamp} (${choice.kind}: ${targets.dataSet.messages.toLocaleString('en')} messages, ` +
    `${targets.dataSet.userMessages.toLocaleString('en')} user_message rows; ${cpus().length} cores, load average ${loadBefore[0]!.toFixed(1)} ` +
    `at the start; ${duration} s per figure)\n`);
  console.log(table);
  for (const note of notes) console.log(`note: ${note}`);
  const file = join(resultsDir, `${stamp}.json`);
  const machine = {
    cores: cpus().length, cpu: cpus()[0]?.model ?? '', memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: loadavg(),
  };
  writeFileSync(file, JSON.stringify({
    date: new Date().toISOString(), machine, store: { kind: choice.kind, location: choice.label }, targets,
    options: { duration, warmup, readConnections, sendConnections, server: serverMode },
    baseline: { startupMs: baseline.startupMs, idleRssMb: baseline.idleRssMb, peakRssMb: baselinePeak, loads: Object.fromEntries(baselineLoads) },
    confab: { startupMs: confab.startupMs, idleRssMb: confab.idleRssMb, peakRssMb: confabPeak, loads },
    rows, notes, markdown: formatMarkdown(rows),
  }, null, 2) + '\n');
  console.log(`\nwrote ${file}`);
}

interface ScenarioContext {
  readConnections: number[];
  sendConnections: number;
  spec(title: string, port: number, connections: number, rest: Partial<LoadSpec>): LoadSpec;
  baselineLoads: Map<number, LoadResult>;
  rows: Row[];
  loads: Record<string, LoadResult>;
  notes: string[];
  /** Where the server process writes its event-loop delay. */
  loopFile: string;
  /** --only sends: skip the read figures. */
  sendsOnly: boolean;
  /** The server's process id, and the CPU time (all threads) it spent over the send run, warm-up included. */
  pid: number;
  sendCpuMs?: number;
}

async function runScenarios(targets: BenchTargets, port: number, auth: Record<string, string>, ctx: ScenarioContext) {
  /** When each load ran, to read the server's event-loop delay over the fetch runs afterwards. */
  const windows: Windows = [];
  const run: Run = async (title: string, connections: number, rest: Partial<LoadSpec>, unit = 'req/s', target?: (r: LoadResult) => { text: string; met: boolean }) => {
    log(`${title}, ${connections} connections...`);
    // The event-loop delay counts from the end of the warm-up, which pays for first compiles and caches.
    let from = Date.now();
    const result = await measure(ctx.spec(title, port, connections, { headers: auth, ...rest }), () => (from = Date.now()));
    windows.push({ connections, from, to: Date.now() });
    // Nothing runs during the window's grace period, so the next run's warm-up is not counted in this one.
    await sleep(300);
    if (result.non2xx > 0 || result.errors > 0) {
      ctx.notes.push(`${title} (${connections} conns): ${result.non2xx} non-2xx answers ${JSON.stringify(result.statusCodes)}, ${result.errors} errors`);
    }
    ctx.loads[`${title} c=${connections}`] = result;
    ctx.rows.push(loadRow(title, result, ctx.baselineLoads.get(connections), unit, target ? target(result) : null));
  };
  const me = await probe(port, '/api/v1/users/me', auth);
  if (me?.status !== 200) throw new Error(`GET /users/me answered ${me?.status}: ${me?.body}`);
  if (!ctx.sendsOnly) await runReads(targets, port, auth, ctx, run, windows);
  await runSends(targets, port, auth, ctx, run, windows);
}

type Run = (title: string, connections: number, rest: Partial<LoadSpec>, unit?: string, target?: (r: LoadResult) => { text: string; met: boolean }) => Promise<void>;
type Windows = Array<{ connections: number; from: number; to: number }>;

async function runReads(targets: BenchTargets, port: number, auth: Record<string, string>, ctx: ScenarioContext, run: Run, windows: Windows) {
  const latencyTarget = (limit: number) => (connections: number) =>
    connections === Math.min(...ctx.readConnections) ? (r: LoadResult) => ({ text: `p99 <= ${limit} ms`, met: r.p99 <= limit }) : undefined;
  // Issue 16's throughput targets are shares of the bare baseline at 50 connections, in the same run.
  const shareTarget = (share: number) => (connections: number) =>
    connections === 50 ? (r: LoadResult) => ({ text: `>= ${share.toFixed(2)}x base`, met: r.perSecond >= share * (ctx.baselineLoads.get(50)?.perSecond ?? Infinity) }) : undefined;
  for (const c of ctx.readConnections) await run('GET /users/me', c, { path: '/api/v1/users/me' }, 'req/s', shareTarget(0.4)(c));

  const history = (narrow: unknown[]) =>
    `/api/v1/messages?anchor=newest&num_before=100&num_after=0&narrow=${encodeURIComponent(JSON.stringify(narrow))}`;
  const fetches = [
    { title: 'GET /messages stream+topic, 100', limit: 10, share: 0.1, path: history([
      { operator: 'stream', operand: targets.topic.streamId }, { operator: 'topic', operand: targets.topic.topic }]) },
    { title: `GET /messages search "${targets.searchWord}", 100`, limit: 50, share: null, path: history([{ operator: 'search', operand: targets.searchWord }]) },
  ];
  const fetchWindows = windows.length;
  for (const fetch of fetches) {
    const answer = await probe(port, fetch.path, auth);
    // Without GET /messages the path answers 405 (POST exists) or 404.
    if (answer?.status === 404 || answer?.status === 405) {
      ctx.notes.push(`${fetch.title}: not measured, GET /messages is not served yet (${answer.status})`);
      continue;
    }
    if (answer?.status !== 200) throw new Error(`${fetch.title} answered ${answer?.status}: ${answer?.body.slice(0, 300)}`);
    const found = (JSON.parse(answer.body) as { messages?: unknown[] }).messages?.length ?? 0;
    log(`${fetch.title}: ${found} messages per answer`);
    if (found === 0) ctx.notes.push(`${fetch.title}: the answer held no messages`);
    for (const c of ctx.readConnections) {
      await run(fetch.title, c, { path: fetch.path }, 'req/s', latencyTarget(fetch.limit)(c) ?? (fetch.share === null ? undefined : shareTarget(fetch.share)(c)));
    }
  }
  // One connection shows what a single request holds the loop for; more show requests queued behind each other.
  await sleep(300);
  for (const c of ctx.readConnections) {
    const runs = windows.slice(fetchWindows).filter((w) => w.connections === c);
    // A short grace after each run: the next run (more connections) starts right after it.
    const worst = runs.length === 0 ? NaN : Math.max(...runs.map((w) => worstLoopDelay(ctx.loopFile, w.from, w.to, 150)));
    addLoopDelayRow(ctx, `worst event-loop delay, fetch and search runs, ${c} conn`, worst);
  }

  // The costliest search a client may send: as many words as allowed, all of them indexed.
  const words = DOMAIN_WORDS.slice(0, MAX_SEARCH_WORDS).join(' ');
  const worstFrom = Date.now();
  let slowest = 0;
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const answer = await probe(port, history([{ operator: 'search', operand: words }]), auth);
    slowest = Math.max(slowest, performance.now() - started);
    if (answer?.status !== 200) ctx.notes.push(`worst-case search answered ${answer?.status}: ${answer?.body.slice(0, 200)}`);
  }
  log(`worst-case search (${MAX_SEARCH_WORDS} words): slowest of 10 answers ${slowest.toFixed(0)} ms`);
  await sleep(300);
  addLoopDelayRow(ctx, `worst event-loop delay, ${MAX_SEARCH_WORDS}-word searches`, worstLoopDelay(ctx.loopFile, worstFrom, Date.now()));
}

async function runSends(targets: BenchTargets, port: number, auth: Record<string, string>, ctx: ScenarioContext, run: Run, windows: Windows) {
  const bodyFor = (n: number) => sendBody(targets, n);
  const sendBase = ctx.baselineLoads.get(ctx.sendConnections)?.perSecond ?? Infinity;
  const cpuBefore = cpuMsOf(ctx.pid);
  await run(`POST /messages, ${targets.sendStream.subscribers} subscribers`, ctx.sendConnections, {
    method: 'POST', path: '/api/v1/messages', bodyFor,
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
  }, 'msgs/s', (r) => ({ text: '>= 0.15x base, p99 <= 50 ms', met: r.perSecond >= 0.15 * sendBase && r.p99 <= 50 }));
  ctx.sendCpuMs = cpuMsOf(ctx.pid) - cpuBefore;
  await sleep(300);
  const send = windows[windows.length - 1]!;
  addLoopDelayRow(ctx, `worst event-loop delay, send run, ${send.connections} conn`, worstLoopDelay(ctx.loopFile, send.from, send.to, 150), null);
}

/** The issue's soak row: the highest RSS of the soak's second half, which must also stay flat. */
async function soakRow(start: () => Promise<RunningProcess>, openBenchStore: () => Store, seconds: number, baselineIdleMb: number): Promise<Row> {
  const result = await soakFreshServer(start, openBenchStore, { queues: SOAK_QUEUES, seconds, sendsPerSecond: 5, fetchesPerSecond: 5, log });
  const second = result.samples.slice(Math.floor(result.samples.length / 2)).map((sample) => sample.rssMb);
  const high = Math.max(...second);
  // Flat: the second half moves by at most a twentieth of its highest value.
  const flat = high - Math.min(...second) <= high / 20;
  log(`soak: ${result.eventsReceived} events received, ${result.failures} failures; second half ${Math.min(...second).toFixed(1)}-${high.toFixed(1)} MB`);
  return processRow(`RSS, ${SOAK_QUEUES} polling queues, ${seconds} s soak`, high, 'MB', baselineIdleMb, {
    text: '<= 150 MB, flat', met: high <= 150 && flat && result.failures === 0,
  });
}

/** The probe writes a block's length when the block ends: waiting lets its line arrive. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Adds the longest event-loop delay the server saw as a row; issue 16 wants at most 20 ms while searches run. */
function addLoopDelayRow(ctx: ScenarioContext, title: string, worst: number, limit: number | null = 20): void {
  log(`${title}: ${worst.toFixed(1)} ms`);
  const row = processRow(title, worst, 'ms', NaN, { text: `<= ${limit} ms`, met: limit !== null && worst <= limit });
  ctx.rows.push(limit === null ? { ...row, target: null, met: null } : row);
}

runBench(main);
