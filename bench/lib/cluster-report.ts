// The cluster benchmark's tables: throughput and latency of each setup beside the single process,
// and the work per message (or ping, or notification) of each part, side by side.
import { percentile } from './http-client.js';
import type { RateLimitCost } from './rate-limit-cost.js';
import type { Work } from './work-meter.js';

export interface PerUnit {
  confabCpuMs: number;
  nginxCpuMs: number;
  postgresCpuMs: number;
  redisCpuMs: number;
  harnessCpuMs: number;
  machineBusy: number;
  /** Cores each part kept busy over the stretch: Confab, PostgreSQL, nginx, Redis, load generator, SQL proxy. */
  cores: number[];
  redisCommands: number;
  /** Commands by name, scripts' own calls included, per unit. */
  redisCalls: Record<string, number>;
  redisBytesIn: number;
  redisBytesOut: number;
  sqlProxyCpuMs: number;
  sqlStatements: number;
  /** Statements by first word, per unit. */
  sqlByKind: Record<string, number>;
  sqlControl: number;
  sqlTransactions: number;
  /** Rows by command (insert, update, delete, select), per unit. */
  sqlRows: Record<string, number>;
  sqlBytesToServer: number;
  sqlBytesFromServer: number;
}

const perEach = (counts: Record<string, number>, units: number) => Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, n / units]));

export function perUnit(work: Work, units: number): PerUnit {
  const per = (n: number) => n / units;
  const { redis, sql, cpuMs: c } = work;
  return {
    confabCpuMs: per(work.cpuMs.confab),
    nginxCpuMs: per(work.cpuMs.nginx),
    postgresCpuMs: per(work.cpuMs.postgres),
    redisCpuMs: per(work.cpuMs.redis),
    harnessCpuMs: per(work.cpuMs.harness),
    machineBusy: work.machineBusy,
    cores: [c.confab, c.postgres, c.nginx, c.redis, c.harness, c.sqlProxy].map((ms) => ms / 1000 / work.seconds),
    redisCommands: redis ? per(redis.commands) : NaN,
    redisCalls: redis ? perEach(redis.calls, units) : {},
    redisBytesIn: redis ? per(redis.bytesIn) : NaN,
    redisBytesOut: redis ? per(redis.bytesOut) : NaN,
    sqlProxyCpuMs: per(work.cpuMs.sqlProxy),
    sqlStatements: sql ? per(sql.statements) : NaN,
    sqlByKind: sql ? perEach(sql.byKind, units) : {},
    sqlControl: sql ? per(sql.control) : NaN,
    sqlTransactions: sql ? per(sql.transactions) : NaN,
    sqlRows: sql ? perEach(sql.rows, units) : {},
    sqlBytesToServer: sql ? per(sql.bytesToServer) : NaN,
    sqlBytesFromServer: sql ? per(sql.bytesFromServer) : NaN,
  };
}

/** Three significant digits, whole numbers from 100 up; '-' for what was not measured. */
export function figure(n: number): string {
  if (!Number.isFinite(n)) return '-';
  if (Math.abs(n) >= 100) return Math.round(n).toLocaleString('en');
  if (n === 0) return '0';
  return Number(n.toPrecision(3)).toString();
}

/** Counts by name, most first, those under 0.01 per unit left out. */
export function callsText(calls: Record<string, number>): string {
  return Object.entries(calls)
    .filter(([, n]) => n >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${figure(n)}`)
    .join(', ');
}

const pick = (counts: Record<string, number>, names: string[]) => Object.fromEntries(names.filter((n) => counts[n]).map((n) => [n, counts[n]!]));

const WORK_ROWS: Array<[string, (p: PerUnit) => string]> = [
  ['Confab CPU, all processes (ms)', (p) => figure(p.confabCpuMs)],
  ['nginx CPU (ms)', (p) => figure(p.nginxCpuMs)],
  ['PostgreSQL backends CPU (ms)', (p) => figure(p.postgresCpuMs)],
  ['Redis CPU (ms)', (p) => figure(p.redisCpuMs)],
  ['load generator CPU (ms)', (p) => figure(p.harnessCpuMs)],
  ['SQL-counting proxy CPU (ms)', (p) => figure(p.sqlProxyCpuMs)],
  ['Redis commands', (p) => figure(p.redisCommands)],
  ['  by name (scripts\' calls too)', (p) => callsText(p.redisCalls) || '-'],
  ['bytes to Redis', (p) => figure(p.redisBytesIn)],
  ['bytes from Redis', (p) => figure(p.redisBytesOut)],
  ['SQL statements', (p) => figure(p.sqlStatements)],
  ['  by kind', (p) => callsText(p.sqlByKind) || '-'],
  ['  and BEGIN/COMMIT/SAVEPOINT...', (p) => figure(p.sqlControl)],
  ['SQL transactions', (p) => figure(p.sqlTransactions)],
  ['rows written (by the tags)', (p) => (Number.isNaN(p.sqlStatements) ? '-' : callsText(pick(p.sqlRows, ['insert', 'update', 'delete'])) || '0')],
  ['rows answered', (p) => (Number.isNaN(p.sqlStatements) ? '-' : figure(p.sqlRows.select ?? 0))],
  ['bytes to PostgreSQL', (p) => figure(p.sqlBytesToServer)],
  ['bytes from PostgreSQL', (p) => figure(p.sqlBytesFromServer)],
  ['cores busy: Confab/PG/nginx/Redis/load/proxy', (p) => p.cores.map((n) => (Number.isFinite(n) ? n.toFixed(2) : '-')).join('/')],
  ['machine busy (all cores, everyone)', (p) => `${(100 * p.machineBusy).toFixed(0)}%`],
];

/** Lines of text in columns: the first left-aligned, the rest right-aligned. */
export function columns(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** One column per setup, one row per kind of work, each figure per unit. */
export function workTable(title: string, setups: Array<{ label: string; per: PerUnit | null }>): string {
  const measured = setups.filter((s): s is { label: string; per: PerUnit } => s.per !== null);
  if (measured.length === 0) return '';
  const rows = [[title, ...measured.map((s) => s.label)], ...WORK_ROWS.map(([name, cell]) => [name, ...measured.map((s) => cell(s.per))])];
  return columns(rows);
}

export interface SetupSummary {
  label: string;
  sends: { perSecond: number; p50: number; p99: number } | null;
  fanout: { latencies: number[]; incomplete: number; queuesPerProcess: number[]; pollsPerMessage: number } | null;
  work: { sends: PerUnit | null; fanout: PerUnit | null; presence: PerUnit | null; typing: PerUnit | null };
  presenceLatency: { p50: number; p99: number } | null;
  /** What went wrong: answers other than 200, or the error that ended the setup early. */
  problems: string[];
}

const ratio = (a: number, b: number | undefined) => (b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0 ? '-' : `${(a / b).toFixed(2)}x`);

/** Sends per second and fan-out latency of each setup, each beside the first setup's (the baseline). */
export function summaryTable(setups: SetupSummary[], rate: number): string {
  const base = setups[0];
  const baseP = (p: number) => (base?.fanout ? percentile(base.fanout.latencies, p) : undefined);
  const rows = [['setup', 'sends/s', 'x base', 'p50 ms', 'p99 ms', 'x base p99', `fan-out ${rate}/s p50 ms`, 'p99 ms', 'x base p50', 'x base p99', 'not delivered to all', 'polls per message', 'queues per process']];
  for (const s of setups) {
    const f = s.fanout;
    const p50 = f ? percentile(f.latencies, 50) : NaN;
    const p99 = f ? percentile(f.latencies, 99) : NaN;
    rows.push([
      s.label,
      s.sends ? s.sends.perSecond.toFixed(0) : '-',
      s.sends ? ratio(s.sends.perSecond, base?.sends?.perSecond) : '-',
      s.sends ? figure(s.sends.p50) : '-',
      s.sends ? figure(s.sends.p99) : '-',
      s.sends ? ratio(s.sends.p99, base?.sends?.p99) : '-',
      figure(p50),
      figure(p99),
      ratio(p50, baseP(50)),
      ratio(p99, baseP(99)),
      f ? String(f.incomplete) : '-',
      f ? figure(f.pollsPerMessage) : '-',
      f ? f.queuesPerProcess.join('/') : '-',
    ]);
  }
  return columns(rows);
}

/** How many queues each process holds: a cluster's queue ids begin with their holder's id and a colon. */
export function queuesPerProcess(queueIds: string[]): number[] {
  const counts = new Map<string, number>();
  for (const id of queueIds) {
    const colon = id.indexOf(':');
    const holder = colon > 0 ? id.slice(0, colon) : '';
    counts.set(holder, (counts.get(holder) ?? 0) + 1);
  }
  return [...counts.values()].sort((a, b) => b - a);
}

/** Rate limits are on in a real cluster and off in the bench: what each check would add to Redis. */
function rateLimitText(cost: RateLimitCost): string {
  const { cpuMs, commands, bytesIn, bytesOut } = cost.perHit;
  return `per rate-limit check (an API request makes two, a poll one; ${cost.hits.toLocaleString('en')} measured apart on the same Redis): ` +
    `Redis CPU ${figure(cpuMs)} ms, ${figure(commands)} commands, ${figure(bytesIn)} bytes to Redis, ${figure(bytesOut)} bytes from it`;
}

/** The whole report: the summary, a work table per stretch, the rate-limit check and what went wrong. */
export function clusterReport(title: string, setups: SetupSummary[], run: { rate: number; clients: number; rateLimits: RateLimitCost | null }): string {
  const perSetup = (key: keyof SetupSummary['work']) => setups.map((r) => ({ label: r.label, per: r.work[key] }));
  return [
    title, '',
    summaryTable(setups, run.rate), '',
    workTable('per message sent, 50 subscribers, no clients', perSetup('sends')),
    'A send writes its message and a user_message row per recipient in one WITH statement, whose tag counts only the id it answers.', '',
    workTable(`per message of the fan-out (${run.clients} clients)`, perSetup('fanout')), '',
    workTable('per presence ping (writes, announces nothing)', perSetup('presence')),
    ...setups.filter((r) => r.presenceLatency).map((r) => `  ${r.label}: ping p50 ${r.presenceLatency!.p50.toFixed(1)} ms, p99 ${r.presenceLatency!.p99.toFixed(1)} ms`), '',
    workTable('per typing notification (stream of 50)', perSetup('typing')), '',
    ...(run.rateLimits ? [rateLimitText(run.rateLimits)] : []),
    ...setups.flatMap((r) => r.problems.map((problem) => `${r.label}: ${problem}`)),
  ].join('\n');
}
