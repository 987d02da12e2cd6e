// npm run bench:web [-- --data-dir DIR] [options]
// The web client in headless Chromium against the built Confab (npm start's way), on the dev data
// (a fresh dev organization) and, with --data-dir, on a bench set (npm run bench:data): first-load
// JavaScript (gzipped), navigation to the first rendered message list, the longest main-thread task
// while scrolling through --messages loaded messages, and the tab's JS heap with them loaded, each
// beside its budget. Results also go to bench/results/<date>-web.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { DEV_PASSWORD } from '../src/dev-seed.js';
import { ensureCompiled, SERVER_NODE_FLAGS } from './lib/confab-build.js';
import { OWNER_PASSWORD } from './lib/organization.js';
import { freePort, runBench, startProcess } from './lib/servers.js';
import { positiveInt } from './lib/store-options.js';
import { firstLoad, logIn, scrollThrough } from './lib/web-page.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: npm run bench:web -- [options]
  --data-dir DIR     also measure on this bench set (npm run bench:data), e.g. /work/bench-data
  --only WHICH       dev | data: measure only on the dev data or only on the bench set
  --email E          who logs in on the bench set (default: its owner, from bench-users.json)
  --password P       their password (default the bench owner's)
  --messages N       messages to load and scroll through (default 10000)
  --step PX          pixels scrolled per frame (default 400)
  --loads N          first loads to time, each with an empty cache; the median counts (default 3)
  --headed           show the browser`;

const BUDGET = { jsKb: 150, firstListMs: 1000, longTaskMs: 50, heapMb: 100 };
const log = (line: string) => process.stderr.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Target {
  name: string;
  serveArgs: string[];
  email: string;
  password: string;
}

async function measure(target: Target, options: { messages: number; step: number; loads: number; headed: boolean }) {
  const entry = ensureCompiled(ROOT, log);
  const loadAverage = loadavg()[0]!;
  const port = await freePort();
  const logFile = join(ROOT, 'bench', 'results', `web-${target.name.replace(/\W+/g, '-')}-server.log`);
  const server = await startProcess({
    name: 'confab', command: process.execPath, cwd: ROOT, logFile, port, readyPath: '/api/v1/server_settings',
    args: [...SERVER_NODE_FLAGS, entry, 'serve', ...target.serveArgs, '--rate-limits', 'off', '--host', '127.0.0.1', '--port', String(port), '--log-level', 'warn'],
  });
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: !options.headed, args: ['--no-sandbox'] });
  try {
    const viewport = { width: 1100, height: 750 };
    const session = await browser.newContext({ viewport });
    const page = await session.newPage();
    page.setDefaultTimeout(30_000);
    await logIn(page, base, target.email, target.password);
    const cookies = await session.cookies();
    const loads = [];
    for (let i = 0; i < options.loads; i++) {
      const fresh = await browser.newContext({ viewport });
      await fresh.addCookies(cookies);
      loads.push(await firstLoad(fresh, base));
      await fresh.close();
    }
    log(`  ${target.name}: first loads ${loads.map((l) => l.firstListMs.toFixed(0)).join(', ')} ms; scripts ${loads[0]!.scripts.map((s) => `${s.url} ${(s.gzipBytes / 1024).toFixed(1)} KB`).join(', ')}`);
    const scroll = await scrollThrough(page, options.messages, options.step, log);
    await session.close();
    return {
      target: target.name,
      loadAverage,
      jsKb: loads[0]!.jsGzipBytes / 1024,
      firstListMs: median(loads.map((l) => l.firstListMs)),
      firstListRunsMs: loads.map((l) => Math.round(l.firstListMs)),
      ...scroll,
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

function report(result: Awaited<ReturnType<typeof measure>>, wanted: number): void {
  const row = (label: string, value: number, unit: string, budget: number, digits = 0) =>
    console.log(`  ${label.padEnd(44)} ${`${value.toFixed(digits)} ${unit}`.padStart(10)}   budget ${budget} ${unit}   ${value <= budget ? 'ok' : 'OVER'}`);
  console.log(`${result.target}: ${result.loaded.toLocaleString('en')} messages loaded${result.loaded < wanted ? ` (all there are; ${wanted.toLocaleString('en')} asked)` : ''}`);
  row('first-load JavaScript (gzipped)', result.jsKb, 'KB', BUDGET.jsKb, 1);
  row('navigation to first message list (median)', result.firstListMs, 'ms', BUDGET.firstListMs);
  row('longest task scrolling through them', result.longestWhileScrollingMs, 'ms', BUDGET.longTaskMs);
  row('  the most CPU time of one task (trace)', result.mostTaskCpuWhileScrollingMs, 'ms', BUDGET.longTaskMs);
  row('longest task fetching them by scrolling', result.longestWhileLoadingMs, 'ms', BUDGET.longTaskMs);
  row('  the most CPU time of one task (trace)', result.mostTaskCpuWhileLoadingMs, 'ms', BUDGET.longTaskMs);
  row('JS heap with them loaded', result.heapMb, 'MB', BUDGET.heapMb, 1);
  console.log(`  (scrolled top to bottom in ${result.scrollSeconds.toFixed(1)} s with ${result.longTasksWhileScrolling} tasks over 50 ms; 0 ms means none;`);
  console.log(`   load average ${result.loadAverage.toFixed(1)} on ${cpus().length} cores when it began: a busy machine stretches tasks)`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' }, only: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' },
      messages: { type: 'string' }, step: { type: 'string' }, loads: { type: 'string' }, headed: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  if (values.only && values.only !== 'dev' && values.only !== 'data') throw new Error('--only takes dev or data');
  if (values.only === 'data' && !values['data-dir']) throw new Error('--only data needs --data-dir');
  const options = {
    messages: positiveInt('messages', values.messages, 10_000),
    step: positiveInt('step', values.step, 400),
    loads: positiveInt('loads', values.loads, 3),
    headed: !!values.headed,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  // The client as it is in web/ now.
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-web.mjs'), '--if-changed'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the web client failed: ${built.stderr}`);

  const results = [];
  if (values.only !== 'data') {
    const dir = mkdtempSync(join(tmpdir(), 'confab-bench-web-'));
    try {
      log('dev data: a fresh dev organization');
      results.push(await measure({ name: 'dev data', serveArgs: ['--dev', '--data-dir', dir], email: 'mark@confab.test', password: DEV_PASSWORD }, options));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (values['data-dir'] && values.only !== 'dev') {
    const dir = resolve(values['data-dir']);
    const info = join(dir, 'bench-users.json');
    if (!existsSync(join(dir, 'confab.db'))) throw new Error(`no data set in ${dir}: build one with npm run bench:data -- --data-dir ${dir}`);
    const owner = existsSync(info) ? (JSON.parse(readFileSync(info, 'utf8')) as { users: { email: string; role: number }[] }).users[0]?.email : undefined;
    const email = values.email ?? owner;
    if (!email) throw new Error(`no ${info}: give --email and --password`);
    log(`bench set ${dir} as ${email}`);
    results.push(await measure({ name: `bench set (${dir})`, serveArgs: ['--data-dir', dir], email, password: values.password ?? OWNER_PASSWORD }, options));
  }
  for (const result of results) report(result, options.messages);
  const file = join(ROOT, 'bench', 'results', `${new Date().toISOString().replace(/:/g, '-').slice(0, 19)}-web.json`);
  writeFileSync(file, JSON.stringify({ budget: BUDGET, options, results }, null, 2) + '\n');
  log(`Wrote ${file}`);
}

runBench(main);
