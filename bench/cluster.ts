// npm run bench:cluster: Confab as one process on PostgreSQL (the baseline), then as 1, 2 and 3
// processes joined through Redis behind nginx (deploy/nginx-confab.conf), all on this machine:
// sends per second, fan-out to long-polling clients, presence pings and typing notifications, and
// what each message cost the Confab processes, nginx, PostgreSQL and Redis.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { openStore, type Store } from '../src/db/connect.js';
import { startNginx } from '../test/support/nginx.js';
import { type Person, pickAudience } from './lib/audience.js';
import { type BenchRedis, connectRedisForStats, createBenchDatabase, dropDatabase, type SqlProxy, startConfabs, startRedis, startSqlProxy } from './lib/cluster-setup.js';
import { clusterReport, perUnit, queuesPerProcess, type SetupSummary } from './lib/cluster-report.js';
import { ensureCompiled, SERVER_NODE_FLAGS } from './lib/confab-build.js';
import { type BenchTargets, discoverTargets, removeSentMessages, sendBody } from './lib/discover.js';
import { paced, runFanout } from './lib/fanout.js';
import { agent, type Answer, call, percentile } from './lib/http-client.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { runBench } from './lib/servers.js';
import { positiveInt } from './lib/store-options.js';
import { measureRateLimitCost, type RateLimitCost } from './lib/rate-limit-cost.js';
import { COMMON_SEARCH_WORD } from './lib/text.js';
import { type MeterSetup, startMeter, type Work } from './lib/work-meter.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FANOUT_TOPIC = 'bench cluster fan-out';
const TYPING_RATE = 50;
const USAGE = `Usage: npm run bench:cluster -- [options]
  --admin-url URL         a database on the PostgreSQL server to use (default postgres://postgres@127.0.0.1:5432/test)
  --database-name NAME    the bench database made there, seeded and dropped at the end (default confab_bench_cluster)
  --users N, --messages N its organization: people (default 1000) and message history (default 5000)
  --keep-database         leave it for later runs (--database-url)
  --database-url URL      run on an existing bench data set instead (npm run bench:data), on the same server
  --redis-url URL         an existing Redis instead of a redis-server of the bench's own (its INFO then counts everyone's work)
  --redis-prefix P        key prefix (default confab-bench-cluster:)
  --processes L           cluster sizes behind nginx (default 1,2,3), after the single process without Redis
  --duration S            measured seconds of sends (default 8), after --warmup S (default 2)
  --send-connections N    connections sending (default 50)
  --clients N             long-polling clients (default 1000, at most the biggest stream's people)
  --rate N                fan-out messages per second (default 20), for --seconds S (default 8)
  --client-processes N    processes the clients run in (default 2)
  --ping-rate N           presence pings a second, one per client (default 200: 12,000 clients pinging once a minute)
  --typing N              typing notifications (default 100, at ${TYPING_RATE}/s)
  --direct-sql            the processes connect straight to PostgreSQL: no SQL counts, and no proxy's CPU beside them
  --only L                some of sends,presence,typing,fanout
  --nginx-workers N|auto  nginx's worker_processes (default auto, as Debian's nginx.conf)
  --nginx-keepalive N     replace the site file's upstream keepalive (default: the file's)
  --node-flags="FLAGS"    Confab's node flags (default "${SERVER_NODE_FLAGS.join(' ')}", as npm start)`;

const log = (line: string) => process.stderr.write(`${line}\n`);

const text = { type: 'string' } as const;
const { values } = parseArgs({
  options: {
    'admin-url': text, 'database-name': text, users: text, messages: text, 'database-url': text, 'redis-url': text, 'redis-prefix': text,
    processes: text, duration: text, warmup: text, 'send-connections': text, clients: text, rate: text, seconds: text, 'client-processes': text,
    typing: text, 'ping-rate': text, only: text, 'nginx-workers': text, 'nginx-keepalive': text, 'node-flags': text,
    'keep-database': { type: 'boolean' }, 'direct-sql': { type: 'boolean' }, help: { type: 'boolean' },
  },
});

const options = {
  adminUrl: values['admin-url'] ?? 'postgres://postgres@127.0.0.1:5432/test',
  databaseName: values['database-name'] ?? 'confab_bench_cluster',
  users: positiveInt('users', values.users, 1000),
  messages: positiveInt('messages', values.messages, 5000),
  redisPrefix: values['redis-prefix'] ?? 'confab-bench-cluster:',
  processes: (values.processes ?? '1,2,3').split(',').map((n) => positiveInt('processes', n, 1)),
  duration: positiveInt('duration', values.duration, 8),
  warmup: positiveInt('warmup', values.warmup, 2),
  sendConnections: positiveInt('send-connections', values['send-connections'], 50),
  clients: positiveInt('clients', values.clients, 1000),
  rate: positiveInt('rate', values.rate, 20),
  seconds: positiveInt('seconds', values.seconds, 8),
  clientProcesses: positiveInt('client-processes', values['client-processes'], 2),
  typing: positiveInt('typing', values.typing, 100),
  pingRate: positiveInt('ping-rate', values['ping-rate'], 200),
  parts: new Set((values.only ?? 'sends,presence,typing,fanout').split(',')),
  nginxWorkers: values['nginx-workers'] === undefined || values['nginx-workers'] === 'auto' ? ('auto' as const) : positiveInt('nginx-workers', values['nginx-workers'], 1),
  nginxKeepalive: values['nginx-keepalive'] === undefined ? undefined : positiveInt('nginx-keepalive', values['nginx-keepalive'], 64),
  nodeFlags: values['node-flags'] === undefined ? SERVER_NODE_FLAGS : values['node-flags'].split(/\s+/).filter(Boolean),
};
for (const part of options.parts) if (!['sends', 'presence', 'typing', 'fanout'].includes(part)) throw new Error(`--only: sends, presence, typing or fanout, not ${part}`);

interface Setup {
  label: string;
  processes: number;
  redis: boolean;
}

interface SetupResult extends SetupSummary {
  raw: Record<string, { units: number; work: Work } | undefined>;
}

interface Context {
  databaseUrl: string;
  /** What the Confab processes connect to (the database through it), unless --direct-sql. */
  sqlProxy: SqlProxy | null;
  databaseName: string;
  store: Store;
  stats: pg.Client;
  redis: BenchRedis;
  targets: BenchTargets;
  sender: Person;
  /** The biggest stream, and the people who long-poll in the fan-out and ping presence. */
  fanoutStream: string;
  audience: Person[];
  entry: string;
  logFile: string;
}

/** The newest message's id: messages stored between two readings, whatever the load generator saw answered. */
async function newestMessageId(ctx: Context): Promise<number> {
  const row = await ctx.store.db.selectFrom('message').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Waits until no message has been stored for half a second: sends still in flight when a load run stops are finished. */
async function settle(ctx: Context): Promise<void> {
  const end = Date.now() + 15_000;
  for (let last = await newestMessageId(ctx); Date.now() < end; ) {
    await sleep(500);
    const now = await newestMessageId(ctx);
    if (now === last) return;
    last = now;
  }
}

type Meter = (clientPids?: number[]) => Promise<() => Promise<Work>>;
type Measured = { units: number; work: Work };

/** --send-connections sending to the 50-subscriber stream as fast as answered; per message stored. */
async function sends(ctx: Context, port: number, meter: Meter): Promise<Measured & { load: LoadResult }> {
  const auth = `Basic ${Buffer.from(`${ctx.targets.user.email}:${ctx.targets.user.apiKey}`).toString('base64')}`;
  const spec = {
    title: 'sends', port, method: 'POST' as const, path: '/api/v1/messages', bodyFor: (n: number) => sendBody(ctx.targets, n),
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, connections: options.sendConnections, durationSeconds: options.duration, warmupSeconds: 0,
  };
  await runLoad(spec, options.warmup);
  const firstId = await newestMessageId(ctx);
  const stop = await meter();
  const load = await runLoad(spec, options.duration);
  const work = await stop();
  // Sends the warm-up left in flight finish inside the window, and the window's own after it.
  const units = (await newestMessageId(ctx)) - firstId;
  await settle(ctx);
  if (load.non2xx > 0 || load.errors > 0) log(`  ${load.non2xx} non-2xx answers ${JSON.stringify(load.statusCodes)}, ${load.errors} errors`);
  return { units, work, load };
}

/** Every user's presence as if they last pinged a minute ago: the next ping writes, as in steady use, and announces nothing. */
async function presenceAMinuteAgo(ctx: Context): Promise<void> {
  const then = Math.floor(Date.now() / 1000) - 60;
  await sql`INSERT INTO user_presence (user_id, realm_id, last_active_time, last_connected_time)
    SELECT id, realm_id, ${then}, ${then} FROM user_profile WHERE is_bot = 0
    ON CONFLICT (user_id) DO UPDATE SET last_active_time = ${then}, last_connected_time = ${then}`.execute(ctx.store.db);
}

/** Answers that were not 200, by status and message, as a note for the report. */
function refusals(what: string, answers: Answer[]): string[] {
  const counts = new Map<string, number>();
  for (const a of answers) if (a.status !== 200) counts.set(`${a.status} ${a.body.msg ?? ''}`, (counts.get(`${a.status} ${a.body.msg ?? ''}`) ?? 0) + 1);
  return [...counts].map(([answer, n]) => `${what}: ${n} of ${answers.length} answered ${answer}`);
}

/** One ping of each client's person at --ping-rate, as the web app pings; per ping. */
async function presence(ctx: Context, port: number, meter: Meter): Promise<Measured & { times: number[]; problems: string[] }> {
  await presenceAMinuteAgo(ctx);
  const stop = await meter();
  const answers = await paced(ctx.audience.length, options.pingRate, async (n) => {
    const started = performance.now();
    const answer = await call(port, 'POST', '/users/me/presence', ctx.audience[n]!.auth, { status: 'active', slim_presence: 'true' });
    return { ...answer, ms: answer.receivedAt - started };
  });
  const work = await stop();
  const times = answers.filter((a) => a.status === 200).map((a) => a.ms).sort((a, b) => a - b);
  return { units: answers.length, work, times, problems: refusals('presence pings', answers) };
}

/** Typing start and stop in turn to a topic of the 50-subscriber stream; per notification. */
async function typing(ctx: Context, port: number, meter: Meter): Promise<Measured & { problems: string[] }> {
  const params = (n: number) => ({ type: 'stream', op: n % 2 === 0 ? 'start' : 'stop', stream_id: String(ctx.targets.sendStream.id), topic: 'load test 0' });
  const stop = await meter();
  const answers = await paced(options.typing, TYPING_RATE, (n) => call(port, 'POST', '/typing', ctx.sender.auth, params(n)));
  return { units: answers.length, work: await stop(), problems: refusals('typing notifications', answers) };
}

async function runSetup(ctx: Context, setup: Setup): Promise<SetupResult> {
  log(`\n${setup.label}: starting...`);
  const confabs = await startConfabs({
    count: setup.processes, databaseUrl: ctx.sqlProxy?.url ?? ctx.databaseUrl, redis: setup.redis ? { url: ctx.redis.url, prefix: options.redisPrefix } : null,
    entry: ctx.entry, nodeFlags: options.nodeFlags, logFile: ctx.logFile, cwd: ROOT,
  });
  const nginx = setup.redis ? await startNginx(confabs.map((c) => c.port), { workers: options.nginxWorkers, workerConnections: 8192, upstreamKeepalive: options.nginxKeepalive }) : null;
  const stopNginx = () => nginx?.stop();
  process.once('exit', stopNginx);
  const port = nginx ? Number(new URL(nginx.url).port) : confabs[0]!.port;
  const meterSetup: MeterSetup = {
    confabPids: confabs.map((c) => c.pid), nginxPid: nginx?.pid ?? null, redis: setup.redis ? ctx.redis.client : null,
    pgStats: ctx.stats, database: ctx.databaseName, sqlProxy: ctx.sqlProxy,
  };
  const meter: Meter = (clientPids = []) => startMeter(meterSetup, clientPids);
  const result: SetupResult = {
    label: setup.label, sends: null, fanout: null, work: { sends: null, fanout: null, presence: null, typing: null }, raw: {}, presenceLatency: null, problems: [],
  };
  const keep = (part: keyof SetupResult['work'], measured: Measured) => {
    result.work[part] = perUnit(measured.work, measured.units);
    result.raw[part] = { units: measured.units, work: measured.work };
    return result.work[part]!;
  };
  try {
    if (options.parts.has('sends')) {
      log(`${setup.label}: sends, ${options.sendConnections} connections...`);
      const measured = await sends(ctx, port, meter);
      const { load } = measured;
      result.sends = { perSecond: load.perSecond, p50: load.p50, p99: load.p99 };
      if (load.non2xx > 0 || load.errors > 0) result.problems.push(`sends: ${load.non2xx} answers other than 2xx ${JSON.stringify(load.statusCodes)}, ${load.errors} errors`);
      const per = keep('sends', measured);
      log(`  ${load.perSecond.toFixed(0)} msgs/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms; Confab CPU ${per.confabCpuMs.toFixed(2)} ms per message`);
    }
    if (options.parts.has('presence')) {
      log(`${setup.label}: ${ctx.audience.length} presence pings at ${options.pingRate}/s...`);
      const measured = await presence(ctx, port, meter);
      result.presenceLatency = { p50: percentile(measured.times, 50), p99: percentile(measured.times, 99) };
      result.problems.push(...measured.problems);
      keep('presence', measured);
    }
    if (options.parts.has('typing')) {
      log(`${setup.label}: ${options.typing} typing notifications at ${TYPING_RATE}/s...`);
      const measured = await typing(ctx, port, meter);
      result.problems.push(...measured.problems);
      keep('typing', measured);
    }
    if (options.parts.has('fanout')) {
      log(`${setup.label}: fan-out to ${ctx.audience.length} long-polling clients at ${options.rate}/s...`);
      const { queueIds, results } = await runFanout({
        port, stream: ctx.fanoutStream, topic: FANOUT_TOPIC, sender: ctx.sender, people: ctx.audience,
        rates: [options.rate], seconds: options.seconds, clientProcesses: options.clientProcesses, meter,
      });
      const run = results[0]!;
      result.fanout = { latencies: run.latencies, incomplete: run.incomplete, queuesPerProcess: queuesPerProcess(queueIds), pollsPerMessage: run.polls / run.sent };
      const per = keep('fanout', { units: run.sent, work: run.measured });
      log(`  p50 ${percentile(run.latencies, 50).toFixed(1)} ms, p99 ${percentile(run.latencies, 99).toFixed(1)} ms, ${run.incomplete} not delivered to all; Confab CPU ${per.confabCpuMs.toFixed(1)} ms per message`);
    }
  } catch (error) {
    // A setup the machine could not carry is a result too: the next one still runs.
    result.problems.push(`ended early: ${error instanceof Error ? error.message : String(error)}`);
    log(`  ${result.problems.at(-1)}`);
  } finally {
    await Promise.all(confabs.map((c) => c.stop()));
    stopNginx();
    process.off('exit', stopNginx);
    agent.destroy();
  }
  // The next setup starts from the same data: what this one sent is deleted and the tables tidied.
  const removed = await removeSentMessages(ctx.store, ctx.targets);
  await sql`VACUUM ANALYZE message, user_message`.execute(ctx.store.db);
  log(`  removed the ${removed} messages it sent`);
  return result;
}

async function main() {
  if (values.help) return void console.log(USAGE);
  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 19);
  const logFile = join(resultsDir, `${stamp}-cluster-servers.log`);
  const loadBefore = loadavg();
  const created = values['database-url'] === undefined;
  const databaseUrl = values['database-url'] ?? (await createBenchDatabase(options.adminUrl, options.databaseName, options, log));
  const databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  // Statistics are read from another database, so that reading them adds nothing to the bench database's.
  const stats = new pg.Client({ connectionString: options.adminUrl });
  await stats.connect();
  const store = openStore({ databaseUrl, poolSize: 2 });
  const redis = values['redis-url'] ? await connectRedisForStats(values['redis-url']) : await startRedis(logFile);
  const sqlProxy = values['direct-sql'] ? null : await startSqlProxy(databaseUrl);
  const setups: Setup[] = [
    { label: 'single process, no Redis', processes: 1, redis: false },
    ...options.processes.map((n) => ({ label: `${n} process${n === 1 ? '' : 'es'} + Redis, nginx`, processes: n, redis: true })),
  ];
  const results: SetupResult[] = [];
  let rateLimits: RateLimitCost | null = null;
  let audienceSize = 0;
  try {
    const targets = await discoverTargets(store, COMMON_SEARCH_WORD);
    const { stream, people } = await pickAudience(store);
    const sender = people.find((p) => p.email === targets.user.email) ?? people[0]!;
    const audience = people.filter((p) => p !== sender).slice(0, options.clients);
    audienceSize = audience.length;
    log(`sends to #${targets.sendStream.name} (${targets.sendStream.subscribers} subscribers) as ${targets.user.email}; ${audience.length} long-polling clients`);
    const ctx: Context = { databaseUrl, sqlProxy, databaseName, store, stats, redis, targets, sender, fanoutStream: stream.name, audience, entry: ensureCompiled(ROOT, log), logFile };
    for (const setup of setups) results.push(await runSetup(ctx, setup));
    rateLimits = await measureRateLimitCost(redis.client, options.redisPrefix);
  } finally {
    await store.close();
    await stats.end();
    await redis.stop();
    sqlProxy?.stop();
    if (created && !values['keep-database']) await dropDatabase(options.adminUrl, options.databaseName);
  }
  const loadAfter = loadavg();
  const title = `Confab cluster benchmark ${stamp} (${cpus().length} cores; load average ${loadBefore[0]!.toFixed(1)} at the start, ${loadAfter[0]!.toFixed(1)} at the end; ` +
    `sends: ${options.sendConnections} connections for ${options.duration} s; fan-out: ${options.rate} msgs/s for ${options.seconds} s)`;
  const report = clusterReport(title, results, { rate: options.rate, clients: audienceSize, rateLimits });
  console.log(`\n${report}`);
  const file = join(resultsDir, `${stamp}-cluster.json`);
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), loadBefore, loadAfter, options: { ...options, parts: [...options.parts] }, results, rateLimits, report }, null, 2) + '\n');
  console.log(`\nwrote ${file}`);
}

runBench(main);
