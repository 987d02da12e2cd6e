// What a stretch of load cost each part of a cluster: CPU time of the Confab processes, nginx,
// the PostgreSQL backends serving the bench database, Redis and the load generators; Redis's
// commands and bytes (INFO); PostgreSQL's statements, transactions and rows (counted on the wire
// by pg-count-proxy.ts: the server's statistics views lag by up to ten seconds behind idle
// connections, too long for stretches of a few seconds). A meter is read at the start and the end
// of a measured stretch; the difference, divided by the messages (or pings, or notifications) of
// that stretch, is the work per message.
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import type { Redis } from 'ioredis';
import { countsSince, type WireCounts } from './pg-wire.js';
import { cpuMsOf } from './servers.js';

export interface RedisCounters {
  /** Commands clients sent (EVAL counts once, whatever its script calls). */
  commands: number;
  /** Calls per command, those run by scripts included (INFO commandstats). */
  calls: Record<string, number>;
  bytesIn: number;
  bytesOut: number;
  /** Redis's own CPU time (all its threads), ms. */
  cpuMs: number;
}

/** The fields of INFO's answer, by name. */
export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

export function redisCounters(info: string): RedisCounters {
  const fields = parseInfo(info);
  const number = (name: string) => Number(fields.get(name) ?? NaN);
  const calls: Record<string, number> = {};
  for (const [name, value] of fields) {
    if (!name.startsWith('cmdstat_')) continue;
    const count = /(?:^|,)calls=(\d+)/.exec(value);
    if (count) calls[name.slice('cmdstat_'.length)] = Number(count[1]);
  }
  return {
    commands: number('total_commands_processed'),
    calls,
    bytesIn: number('total_net_input_bytes'),
    bytesOut: number('total_net_output_bytes'),
    cpuMs: (number('used_cpu_sys') + number('used_cpu_user')) * 1000,
  };
}

/** The meter's own INFO calls, left out of the figures. */
const METER_COMMANDS = new Set(['info']);

export function redisDelta(before: RedisCounters, after: RedisCounters): RedisCounters {
  const calls: Record<string, number> = {};
  for (const [name, count] of Object.entries(after.calls)) {
    const delta = count - (before.calls[name] ?? 0);
    if (delta > 0 && !METER_COMMANDS.has(name)) calls[name] = delta;
  }
  const meterCalls = (after.calls.info ?? 0) - (before.calls.info ?? 0);
  return {
    commands: after.commands - before.commands - meterCalls,
    calls,
    bytesIn: after.bytesIn - before.bytesIn,
    bytesOut: after.bytesOut - before.bytesOut,
    cpuMs: after.cpuMs - before.cpuMs,
  };
}

/** Busy and total CPU time of the whole machine so far (/proc/stat), ms of all cores. */
export function machineCpu(stat = readFileSync('/proc/stat', 'utf8')): { busyMs: number; totalMs: number } {
  const fields = stat.split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = fields[3]! + fields[4]!;
  return { busyMs: (total - idle) * 10, totalMs: total * 10 };
}

/** Ids of the processes whose parent is `pid` (nginx's workers). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name));
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/**
 * CPU time of a set of processes that may change while it is watched (database backends come and
 * go with the connection pools): each one's last reading is kept, sampled every `everyMs`.
 */
export class ProcessSetCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly pids: () => Promise<number[]> | number[]) {}

  async start(everyMs = 500): Promise<void> {
    await this.sample(true);
    this.timer = setInterval(() => void this.sample(false).catch(() => undefined), everyMs);
  }

  /** CPU ms used since start by every process seen (a process first seen later counts from its birth). */
  async stop(): Promise<number> {
    if (this.timer) clearInterval(this.timer);
    await this.sample(false);
    let total = 0;
    for (const [pid, last] of this.last) total += last - (this.first.get(pid) ?? 0);
    return total;
  }

  private async sample(initial: boolean): Promise<void> {
    for (const pid of await this.pids()) {
      const ms = cpuMsOf(pid);
      if (!Number.isFinite(ms)) continue;
      if (initial) this.first.set(pid, ms);
      this.last.set(pid, ms);
    }
  }
}

const INFO_COMMAND = ['INFO', 'stats', 'cpu', 'commandstats'];

/** The INFO sections the meter reads. */
function redisStats(redis: Redis): Promise<string> {
  return redis.call(INFO_COMMAND[0]!, ...INFO_COMMAND.slice(1)) as Promise<string>;
}

/**
 * Leaves out the meter's own bytes: the answer to the first INFO is sent after its figures were
 * taken, and the second INFO's command is read before its figures are taken.
 */
export function withoutMeter(delta: RedisCounters, firstAnswer: string): RedisCounters {
  const answerBytes = Buffer.byteLength(firstAnswer);
  const command = INFO_COMMAND.map((word) => `$${word.length}\r\n${word}\r\n`).join('');
  return {
    ...delta,
    bytesOut: delta.bytesOut - (answerBytes + `$${answerBytes}\r\n\r\n`.length),
    bytesIn: delta.bytesIn - (`*${INFO_COMMAND.length}\r\n`.length + command.length),
  };
}

export interface Work {
  seconds: number;
  cpuMs: { confab: number; nginx: number; postgres: number; redis: number; harness: number; sqlProxy: number };
  /** Share of all the machine's cores that were busy (everything on it, other users included). */
  machineBusy: number;
  redis: RedisCounters | null;
  sql: WireCounts | null;
}

export interface MeterSetup {
  confabPids: number[];
  nginxPid: number | null;
  redis: Redis | null;
  /** A connection to another database of the server, to list the bench database's backends. */
  pgStats: pg.Client;
  database: string;
  /** Counts SQL on the wire (pg-count-proxy.ts), unless the processes connect straight to the database. */
  sqlProxy: { pid: number; read(): Promise<WireCounts> } | null;
}

/** Starts measuring; the answer stops and returns what the stretch cost. `extraHarnessPids` are load generators besides this process. */
export async function startMeter(setup: MeterSetup, extraHarnessPids: number[] = []): Promise<() => Promise<Work>> {
  const backends = new ProcessSetCpu(async () => {
    const { rows } = await setup.pgStats.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [setup.database]);
    return rows.map((row) => Number(row.pid));
  });
  const nginxPids = setup.nginxPid === null ? [] : [setup.nginxPid, ...childPids(setup.nginxPid)];
  const fixed = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
  const redisInfo = setup.redis ? await redisStats(setup.redis) : null;
  const redisBefore = redisInfo ? redisCounters(redisInfo) : null;
  const proxy = setup.sqlProxy;
  const sqlBefore = proxy ? await proxy.read() : null;
  const proxyBefore = proxy ? cpuMsOf(proxy.pid) : NaN;
  await backends.start();
  const started = performance.now();
  const machineBefore = machineCpu();
  const confabBefore = fixed(setup.confabPids);
  const nginxBefore = fixed(nginxPids);
  const harnessBefore = process.cpuUsage();
  const othersBefore = fixed(extraHarnessPids);
  return async () => {
    const confab = fixed(setup.confabPids) - confabBefore;
    const nginx = fixed(nginxPids) - nginxBefore;
    const harnessUsage = process.cpuUsage(harnessBefore);
    const harness = (harnessUsage.user + harnessUsage.system) / 1000 + fixed(extraHarnessPids) - othersBefore;
    const machineAfter = machineCpu();
    const seconds = (performance.now() - started) / 1000;
    const postgres = await backends.stop();
    const redis = setup.redis && redisBefore ? withoutMeter(redisDelta(redisBefore, redisCounters(await redisStats(setup.redis))), redisInfo!) : null;
    const sqlProxy = proxy ? cpuMsOf(proxy.pid) - proxyBefore : NaN;
    const sql = proxy && sqlBefore ? countsSince(sqlBefore, await proxy.read()) : null;
    return {
      seconds,
      cpuMs: { confab, nginx, postgres, redis: redis?.cpuMs ?? NaN, harness, sqlProxy },
      machineBusy: (machineAfter.busyMs - machineBefore.busyMs) / (machineAfter.totalMs - machineBefore.totalMs),
      redis,
      sql,
    };
  };
}
