// Several real Confab processes (child processes, so one can be killed) sharing a fresh PostgreSQL
// database, Redis under a prefix of their own and a data folder (their uploads), for the cluster tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './nginx.js';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? (process.env.TEST_DATABASE_URL ? 'redis://127.0.0.1:6379' : undefined);

export interface Member {
  port: number;
  url: string;
  process: ChildProcess;
  output: string[];
}

export interface TestCluster {
  databaseUrl: string;
  /** The members' shared --data-dir (a disk they share, as processes on one machine do), removed at stop. */
  dataDir: string;
  redisPrefix: string;
  members: Member[];
  start(extraFlags?: string[]): Promise<Member>;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  return fetch(`${url}/health/ready`).then((r) => r.ok, () => false);
}

export interface ClusterOptions {
  redisUrl?: string;
  /** The members reach PostgreSQL through this port on 127.0.0.1 (a test's TCP proxy) instead. */
  databasePort?: number;
}

export async function startCluster(count: number, extraFlags: string[] = [], options: ClusterOptions = {}): Promise<TestCluster> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `confab_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const memberDatabaseUrl = options.databasePort ? Object.assign(new URL(databaseUrl), { hostname: '127.0.0.1', port: String(options.databasePort) }).toString() : databaseUrl;
  const redisPrefix = `confab-test-${randomBytes(4).toString('hex')}:`;
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-cluster-'));
  const members: Member[] = [];

  async function start(flags: string[] = []): Promise<Member> {
    const port = await freePort();
    const args = ['--import', 'tsx', 'src/main.ts', 'serve', '--port', String(port), '--host', '127.0.0.1', '--dev', '--log-level', 'warn',
      '--data-dir', dataDir, '--database-url', memberDatabaseUrl, '--redis-url', options.redisUrl ?? TEST_REDIS_URL!, '--redis-prefix', redisPrefix, '--rate-limits', 'off', ...extraFlags, ...flags];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const member: Member = { port, url: `http://127.0.0.1:${port}`, process: child, output: [] };
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => member.output.push(chunk.toString()));
    // Generous: on a busy machine compiling the sources alone takes a while.
    const end = Date.now() + 60_000;
    while (!(await answers(member.url))) {
      if (child.exitCode !== null || Date.now() > end) {
        child.kill('SIGKILL');
        throw new Error(`a cluster member did not start:\n${member.output.join('')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    members.push(member);
    return member;
  }

  const cluster: TestCluster = {
    databaseUrl,
    dataDir,
    redisPrefix,
    members,
    start,
    async stop() {
      await Promise.all(
        members.map((m) =>
          m.process.exitCode !== null || m.process.signalCode !== null
            ? undefined
            : new Promise<void>((resolve) => {
                m.process.once('exit', () => resolve());
                m.process.kill('SIGTERM');
              }),
        ),
      );
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };

  // The first member migrates and seeds the dev organization; the others start on that store together.
  try {
    if (count > 0) {
      await start();
      const rest = await Promise.allSettled(Array.from({ length: count - 1 }, () => start()));
      for (const result of rest) if (result.status === 'rejected') throw result.reason;
    }
  } catch (error) {
    // Every start has settled (a member that failed was killed): none outlives the failed test.
    await cluster.stop();
    throw error;
  }
  return cluster;
}
