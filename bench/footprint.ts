// npm run bench:footprint -- --data-dir DIR [options]
// The built server's footprint: start to first answer (wall clock and CPU), idle RSS by component
// (/proc smaps: the node binary's pages, other files, anonymous memory) and a heap snapshot summary,
// then optionally a soak with many long-polling queues under steady sends and fetches, reporting
// RSS over time. Results go to bench/results/<date>-footprint.json.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openStore, sqlitePathFor } from '../src/db/connect.js';
import { ensureCompiled, SERVER_NODE_FLAGS } from './lib/confab-build.js';
import { formatHeapSummary, summariseHeapSnapshot } from './lib/heap-summary.js';
import { residentByComponent } from './lib/proc-memory.js';
import { environmentNotes, freePort, memoryOf, runBench, type RunningProcess, startProcess } from './lib/servers.js';
import { type SoakResult, soakFreshServer } from './lib/soak.js';
import { positiveInt, storeChoice } from './lib/store-options.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: npm run bench:footprint -- [options]
  --data-dir DIR        the built SQLite data set (default data/bench)
  --database-url URL    a data set built into PostgreSQL instead
  --entry FILE          the server's entry point (default dist/confab.js, as npm start runs it)
  --node-flags "FLAGS"  node flags of the server (default "${SERVER_NODE_FLAGS.join(' ')}", as npm start)
  --starts N            starts to time (default 5); the figures are their median and range
  --top N               rows per heap snapshot table (default 15)
  --settle S            the last start also waits S seconds idle, then measures again (default 40; 0: no)
  --soak S              then hold --queues long-polls under load for S seconds (default 0: no soak)
  --queues N            long-polling queues in the soak (default 200)
  --sends R             messages sent per second in the soak (default 5)
  --fetches R           GET /messages (100 newest) per second in the soak (default 5)`;

const log = (line: string) => process.stderr.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: number[], digits = 0) => `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, entry: { type: 'string' },
      'node-flags': { type: 'string' }, starts: { type: 'string' }, top: { type: 'string' }, settle: { type: 'string' }, soak: { type: 'string' },
      queues: { type: 'string' }, sends: { type: 'string' }, fetches: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const choice = storeChoice(values['data-dir'], values['database-url']);
  if (choice.kind === 'sqlite' && !existsSync(join(choice.dataDir!, 'confab.db'))) {
    throw new Error(`no data set in ${choice.dataDir}: build one with npm run bench:data -- --data-dir ${choice.dataDir}`);
  }
  const starts = positiveInt('starts', values.starts, 5);
  const top = positiveInt('top', values.top, 15);
  const settleSeconds = values.settle === '0' ? 0 : positiveInt('settle', values.settle, 40);
  const soakSeconds = values.soak === undefined ? 0 : positiveInt('soak', values.soak, 0);
  const nodeFlags = values['node-flags'] === undefined ? SERVER_NODE_FLAGS : values['node-flags'].split(/\s+/).filter(Boolean);
  const entry = values.entry ? resolve(values.entry) : ensureCompiled(ROOT, log);

  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 19);
  const logFile = join(resultsDir, `${stamp}-footprint-server.log`);
  const heapFile = join(resultsDir, `${stamp}-heap`);
  const storeArgs = choice.kind === 'sqlite' ? ['--data-dir', choice.dataDir!] : ['--database-url', choice.databaseUrl!];
  const start = async (extraFlags: string[] = []) => {
    const port = await freePort();
    return startProcess({
      name: 'confab', command: process.execPath, cwd: ROOT, logFile, port, readyPath: '/api/v1/server_settings',
      args: [...nodeFlags, ...extraFlags, entry, 'serve', ...storeArgs, '--rate-limits', 'off', '--host', '127.0.0.1', '--port', String(port), '--log-level', 'warn'],
    });
  };
  const loadBefore = loadavg();
  log(`${entry} with ${nodeFlags.join(' ') || 'no flags'} on ${choice.label} (load average ${loadBefore[0]!.toFixed(1)})`);

  // Timed starts; the last one also gets the heap probe (bench/lib/heap-probe.mjs), which writes on SIGUSR2.
  const runs: Array<{ startupMs: number; startupCpuMs: number; idleRssMb: number }> = [];
  let components: ReturnType<typeof residentByComponent> = null;
  let settled: { rssMb: number; components: ReturnType<typeof residentByComponent> } | null = null;
  let heap: { figures: V8Figures; summary: ReturnType<typeof summariseHeapSnapshot> } | null = null;
  for (let i = 0; i < starts; i++) {
    const last = i === starts - 1;
    process.env.BENCH_HEAP_FILE = heapFile;
    const server = await start(last ? ['--import', join(ROOT, 'bench', 'lib', 'heap-probe.mjs')] : []);
    runs.push({ startupMs: server.startupMs, startupCpuMs: server.startupCpuMs, idleRssMb: server.idleRssMb });
    log(`start ${i + 1}: first answer after ${server.startupMs.toFixed(0)} ms (${server.startupCpuMs.toFixed(0)} ms CPU), idle RSS ${server.idleRssMb.toFixed(1)} MB`);
    if (last) {
      components = residentByComponent(server.pid);
      if (settleSeconds > 0) {
        // V8's memory reducer gives back what start-up left behind after some seconds without work.
        await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
        settled = { rssMb: memoryOf(server.pid)?.rssMb ?? Number.NaN, components: residentByComponent(server.pid) };
        log(`after ${settleSeconds} s idle: RSS ${settled.rssMb.toFixed(1)} MB`);
      }
      heap = await snapshot(server, heapFile, top);
    }
    await server.stop();
  }

  let soakResult: SoakResult | null = null;
  if (soakSeconds > 0) {
    const openBenchStore = () =>
      choice.kind === 'sqlite' ? openStore({ sqlitePath: sqlitePathFor(choice.dataDir!) }) : openStore({ databaseUrl: choice.databaseUrl, poolSize: 2 });
    soakResult = await soakFreshServer(() => start(), openBenchStore, {
      queues: positiveInt('queues', values.queues, 200), seconds: soakSeconds,
      sendsPerSecond: positiveInt('sends', values.sends, 5), fetchesPerSecond: positiveInt('fetches', values.fetches, 5), log,
    });
  }

  const report = [
    `Confab footprint ${stamp} (${choice.kind}; ${cpus().length} cores, load average ${loadBefore[0]!.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after)`,
    `server: node ${nodeFlags.join(' ')} ${entry.replace(`${ROOT}/`, '')}`,
    `start to first answer: median ${median(runs.map((r) => r.startupMs)).toFixed(0)} ms (${range(runs.map((r) => r.startupMs))} over ${runs.length} starts); ` +
      `CPU by then median ${median(runs.map((r) => r.startupCpuMs)).toFixed(0)} ms (${range(runs.map((r) => r.startupCpuMs))})`,
    `idle RSS one second after the first answer: median ${median(runs.map((r) => r.idleRssMb)).toFixed(1)} MB (${range(runs.map((r) => r.idleRssMb), 1)})`,
    ...environmentNotes().map((note) => `note: ${note}`),
  ];
  const describe = (title: string, parts: typeof components) =>
    parts && report.push(`${title} (${parts.threads} threads): ${parts.parts.map((p) => `${p.name} ${p.mb.toFixed(1)} MB`).join(', ')}`);
  describe('resident by component, last start', components);
  if (settled) {
    report.push(`idle RSS after ${settleSeconds} s without requests (last start): ${settled.rssMb.toFixed(1)} MB`);
    describe(`resident by component after ${settleSeconds} s idle`, settled.components);
  }
  if (heap) report.push(formatV8Figures(heap.figures), formatHeapSummary(heap.summary));
  if (soakResult) {
    const samples = soakResult.samples;
    const second = samples.slice(Math.floor(samples.length / 2)).map((s) => s.rssMb);
    report.push(
      `soak: ${soakResult.sent} sent, ${soakResult.fetched} fetched, ${soakResult.eventsReceived} events received, ${soakResult.failures} failures`,
      `soak RSS over time (s: MB): ${samples.map((s) => `${s.at}: ${s.rssMb.toFixed(0)}`).join(', ')}`,
      `soak RSS: peak ${Math.max(...samples.map((s) => s.rssMb)).toFixed(1)} MB; second half ${range(second, 1)} MB`,
    );
    describe('resident by component at the end of the soak', soakResult.components);
  }
  console.log(`\n${report.join('\n')}`);
  const file = join(resultsDir, `${stamp}-footprint.json`);
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), store: choice.label, entry, nodeFlags, runs, components, settled, heap, soak: soakResult, report }, null, 2) + '\n');
  console.log(`\nwrote ${file}`);
}

interface V8Figures {
  memoryUsage: Record<string, number>;
  spaces: Array<{ space_name: string; space_size: number; space_used_size: number }>;
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function formatV8Figures(figures: V8Figures): string {
  const spaces = figures.spaces.filter((s) => s.space_size > 0).map((s) => `${s.space_name} ${mb(s.space_size)} (${mb(s.space_used_size)} used)`);
  const usage = figures.memoryUsage;
  return `V8 heap ${mb(usage.heapTotal!)} MB reserved, ${mb(usage.heapUsed!)} MB used; external ${mb(usage.external!)} MB; by space, MB: ${spaces.join(', ')}`;
}

/** Asks the probe for a heap snapshot, waits until it is whole, summarises it and deletes it (they run to tens of MB). */
async function snapshot(server: RunningProcess, heapFile: string, top: number) {
  process.kill(server.pid, 'SIGUSR2');
  const deadline = Date.now() + 120_000;
  while (!existsSync(`${heapFile}.done`)) {
    if (Date.now() > deadline) throw new Error('the heap snapshot did not arrive within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const figures = JSON.parse(readFileSync(`${heapFile}.json`, 'utf8')) as V8Figures;
  const summary = summariseHeapSnapshot(`${heapFile}.heapsnapshot`, top);
  for (const suffix of ['.json', '.heapsnapshot', '.done']) rmSync(`${heapFile}${suffix}`, { force: true });
  return { figures, summary };
}

runBench(main);
