// Several real Confab processes (child processes, so one can be killed) sharing a fresh PostgreSQL
// database and Redis under a prefix of their own, for the cluster tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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
  redisPrefix: string;
  members: Member[];
  start(extraFlags?: string[]): Promise<Member>;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  return fetch(`${url}/health/ready`).then((r) => r.ok, () => false);
}

export async function startCluster(count: number, extraFlags: string[] = [], options: { redisUrl?: string } = {}): Promise<TestCluster> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `confab_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const redisPrefix = `confab-test-${randomBytes(4).toString('hex')}:`;
  const members: Member[] = [];

  async function start(flags: string[] = []): Promise<Member> {
    const port = await freePort();
    const args = ['--import', 'tsx', 'src/main.ts', 'serve', '--port', String(port), '--host', '127.0.0.1', '--dev', '--log-level', 'warn',
      '--database-url', databaseUrl, '--redis-url', options.redisUrl ?? TEST_REDIS_URL!, '--redis-prefix', redisPrefix, '--rate-limits', 'off', ...extraFlags, ...flags];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const member: Member = { port, url: `http://127.0.0.1:${port}`, process: child, output: [] };
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => member.output.push(chunk.toString()));
    const end = Date.now() + 30_000;
    while (!(await answers(member.url))) {
      if (child.exitCode !== null || Date.now() > end) throw new Error(`a cluster member did not start:\n${member.output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    members.push(member);
    return member;
  }

  // The first member migrates and seeds the dev organization; the others start on that store together.
  if (count > 0) {
    await start();
    await Promise.all(Array.from({ length: count - 1 }, () => start()));
  }

  return {
    databaseUrl,
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
    },
  };
}
