// Server processes under test: start one, time it to its first answered request, read its
// memory from /proc, and stop it (politely, then firmly).
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const POLL_INTERVAL_MS = 2;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One GET; resolves with the status, or null when nothing answers yet. */
export function probe(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = request({ host: HOST, port, path, headers, agent: false, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export interface MemoryFigures {
  /** Resident set size now, MB. */
  rssMb: number;
  /** Highest resident set size so far, MB. */
  peakRssMb: number;
}

export function memoryOf(pid: number): MemoryFigures | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** CPU time (user + system) the process has used so far, ms; NaN when it cannot be read. */
export function cpuMsOf(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces) start at state; utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Linux's USER_HZ, 100 on every mainstream configuration. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface RunningProcess {
  name: string;
  port: number;
  pid: number;
  /** From spawn to the first answered request, ms. */
  startupMs: number;
  /** CPU time (all threads) the process had used by its first answer, ms: less moved by a busy machine than startupMs. */
  startupCpuMs: number;
  /** Resident memory a second after the first answer, before any load, MB. */
  idleRssMb: number;
  memory(): MemoryFigures | null;
  stop(): Promise<void>;
}

export interface StartSpec {
  name: string;
  command: string;
  args: string[];
  port: number;
  /** A path answered without credentials once the server is up. */
  readyPath: string;
  logFile: string;
  cwd: string;
  settleMs?: number;
}

const running = new Set<ChildProcess>();

/** A child process the bench started some other way, to be killed with the servers on errors and Ctrl-C. */
export function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** Stops every server still running (used on errors and Ctrl-C). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Runs a bench's main: servers it started are killed on Ctrl-C, SIGTERM or an error. */
export function runBench(main: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
  main().catch((error) => {
    killAll();
    console.error(error instanceof Error ? error.stack ?? error.message : error);
    process.exit(1);
  });
}

export async function startProcess(spec: StartSpec): Promise<RunningProcess> {
  const log = openSync(spec.logFile, 'a');
  const started = performance.now();
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, stdio: ['ignore', log, log] });
  closeSync(log);
  running.add(child);
  let exited: string | null = null;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = `exited with ${signal ?? code}`;
      running.delete(child);
      resolve();
    });
  });
  let startupMs = NaN;
  let startupCpuMs = NaN;
  for (let attempt = 0; ; attempt++) {
    if (exited) throw new Error(`${spec.name} ${exited} before answering; see ${spec.logFile}`);
    if (performance.now() - started > START_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`${spec.name} did not answer within ${START_TIMEOUT_MS} ms; see ${spec.logFile}`);
    }
    const answer = await probe(spec.port, spec.readyPath);
    if (answer) {
      startupMs = performance.now() - started;
      startupCpuMs = cpuMsOf(child.pid!);
      if (answer.status !== 200) throw new Error(`${spec.name} answered ${spec.readyPath} with ${answer.status}: ${answer.body}`);
      break;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  await sleep(spec.settleMs ?? 1000);
  const idle = memoryOf(child.pid!);
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exitPromise;
    clearTimeout(timer);
  };
  return {
    name: spec.name,
    port: spec.port,
    pid: child.pid!,
    startupMs,
    startupCpuMs,
    idleRssMb: idle?.rssMb ?? NaN,
    memory: () => memoryOf(child.pid!),
    stop,
  };
}

/**
 * What in this machine's environment moves the start figures: NODE_EXTRA_CA_CERTS makes node parse
 * that file on every start, before any of the server's code runs (the system's whole CA bundle, as
 * on the team's machines, costs about 40 ms of CPU, measured with `node -e 1` with and without it).
 */
export function environmentNotes(): string[] {
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  return extra ? [`NODE_EXTRA_CA_CERTS=${extra} is set: node parses it at every start, before the server's own code (unset it to measure the server alone)`] : [];
}
