// What the cluster benchmark runs on: a bench database on the PostgreSQL server (created, seeded
// with the bench organization, dropped afterwards), a Redis of its own, and Confab processes on
// that database, with or without Redis.
import { fork, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Redis } from 'ioredis';
import { migrateToLatest, openStore } from '../../src/db/connect.js';
import { buildDataSet } from './build.js';
import type { FromProxy, ToProxy } from './pg-count-proxy.js';
import type { WireCounts } from './pg-wire.js';
import { freePort, HOST, killOnExit, type RunningProcess, startProcess } from './servers.js';

const REDIS_START_TIMEOUT_MS = 10_000;
const HERE = dirname(fileURLToPath(import.meta.url));

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrlFor(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates database `name` (refusing one that exists) and builds the bench organization into it. */
export async function createBenchDatabase(adminUrl: string, name: string, options: { users: number; messages: number }, log: (line: string) => void): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`--database-name: a plain lower-case name, not '${name}'`);
  await admin(adminUrl, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) throw new Error(`database ${name} exists already: drop it, or run on it with --database-url`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  const url = databaseUrlFor(adminUrl, name);
  const store = openStore({ databaseUrl: url });
  try {
    await migrateToLatest(store.db);
    const started = Date.now();
    const { totals } = await buildDataSet(store, {
      users: options.users, streams: 200, messages: options.messages, directShare: 0.25, seed: 1,
      realmUrl: 'http://127.0.0.1:9991', end: Math.floor(Date.now() / 1000),
    });
    log(`built ${name}: ${totals.users} people, ${totals.streams} streams, ${totals.messages} messages in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await store.close();
  }
  return url;
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await admin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export interface BenchRedis {
  url: string;
  /** A connection for the meter's INFO. */
  client: Redis;
  stop(): Promise<void>;
}

/** A redis-server of the bench's own on a free port, without persistence, so its INFO counts only this bench. */
export async function startRedis(logFile: string): Promise<BenchRedis> {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const child = spawn('redis-server', ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', log, log] });
  closeSync(log);
  killOnExit(child);
  const url = `redis://${HOST}:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  const end = Date.now() + REDIS_START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}; see ${logFile}`);
    if (await client.connect().then(() => true, () => false)) break;
    if (Date.now() > end) throw new Error(`redis-server did not answer within ${REDIS_START_TIMEOUT_MS} ms; see ${logFile}`);
    await sleep(50);
  }
  return {
    url,
    client,
    async stop() {
      client.disconnect();
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** An existing Redis (--redis-url): its INFO counts everything else it serves too. */
export async function connectRedisForStats(url: string): Promise<BenchRedis> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  await client.ping();
  return { url, client, stop: async () => void client.disconnect() };
}

export interface ConfabProcessesSpec {
  count: number;
  databaseUrl: string;
  /** Joined through Redis (with this key prefix), or alone on PostgreSQL. */
  redis: { url: string; prefix: string } | null;
  entry: string;
  nodeFlags: string[];
  logFile: string;
  cwd: string;
}

/** Starts the processes together on an already migrated store; each answers on a port of its own. */
export async function startConfabs(spec: ConfabProcessesSpec): Promise<RunningProcess[]> {
  const ports = await Promise.all(Array.from({ length: spec.count }, () => freePort()));
  const cluster = spec.redis
    ? ['--redis-url', spec.redis.url, '--redis-prefix', spec.redis.prefix, '--trusted-proxies', HOST]
    : [];
  return Promise.all(ports.map((port, i) => startProcess({
    name: `confab ${i + 1}`, command: process.execPath,
    // Rate limits off: one bench user sends hundreds of messages a second on purpose.
    args: [...spec.nodeFlags, spec.entry, 'serve', '--database-url', spec.databaseUrl, ...cluster, '--rate-limits', 'off', '--host', HOST, '--port', String(port), '--log-level', 'warn'],
    port, readyPath: '/api/v1/server_settings', logFile: spec.logFile, cwd: spec.cwd,
  })));
}

export interface SqlProxy {
  /** The database URL through the proxy. */
  url: string;
  pid: number;
  read(): Promise<WireCounts>;
  stop(): void;
}

/** pg-count-proxy.ts in front of the server of `databaseUrl`, counting every connection made through it. */
export async function startSqlProxy(databaseUrl: string): Promise<SqlProxy> {
  const target = new URL(databaseUrl);
  const child = fork(join(HERE, 'pg-count-proxy.ts'), [target.hostname, target.port || '5432'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  killOnExit(child);
  const answer = <K extends FromProxy['kind']>(kind: K, ask?: ToProxy) =>
    new Promise<Extract<FromProxy, { kind: K }>>((resolve, reject) => {
      const onMessage = (message: FromProxy) => {
        if (message.kind !== kind) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<FromProxy, { kind: K }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the SQL-counting proxy exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (ask) child.send(ask);
    });
  const { port } = await answer('listening');
  const url = new URL(databaseUrl);
  url.hostname = HOST;
  url.port = String(port);
  return {
    url: url.toString(),
    pid: child.pid!,
    read: async () => (await answer('counts', { kind: 'read' })).counts,
    stop: () => void child.kill(),
  };
}
