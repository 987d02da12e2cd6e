import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { SMALL_DISK_UNAVAILABLE, SmallDisk } from '../support/small-disk.js';

const run = promisify(execFile);

describe('starting Confab on the embedded store', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-start-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  async function start(extra: Record<string, string | boolean> = {}) {
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: string) => void lines.push(String(line));
    try {
      const server = await startServer(loadConfig({ port: '0', 'data-dir': dataDir, 'log-level': 'fatal', ...extra }, {}));
      return { server, lines };
    } finally {
      console.log = original;
    }
  }

  it('creates an organization and its owner on first start and prints how to log in', async () => {
    const { server, lines } = await start();
    try {
      const email = lines.find((l) => l.includes('email:'))?.split(/\s+/).pop();
      const key = lines.find((l) => l.includes('API key:'))?.split(/\s+/).pop();
      assert.equal(email, 'owner@confab.local');
      assert.equal(key?.length, 32);
      assert.ok(lines.some((l) => l.startsWith('Try: curl -u owner@confab.local:')));
      assert.ok(
        lines.some((l) => /^Open http:\/\/\S+\/ in a browser and log in with this email and password, then use Invite people in the web client to invite others\.$/.test(l)),
        lines.join('\n'),
      );
      const res = await fetch(`${server.url}/api/v1/users/me`, {
        headers: { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` },
      });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { email: string; role: number };
      assert.equal(body.email, 'owner@confab.local');
      assert.equal(body.role, 100);
    } finally {
      await server.stop();
    }
  });

  it('keeps the data on the next start and prints no new credentials', async () => {
    const { server, lines } = await start();
    try {
      assert.deepEqual(lines, []);
      const realms = await server.services.db.selectFrom('realm').select('name').execute();
      assert.deepEqual(realms, [{ name: 'Confab' }]);
    } finally {
      await server.stop();
    }
  });

  it('runs the command line: create-user, api-key and its rotation', async () => {
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args, '--data-dir', dataDir], { env: { ...process.env, CONFAB_LOG_LEVEL: 'fatal' } });
    const created = await cli('create-user', '--email', 'pat@confab.local', '--name', 'Pat Person', '--role', 'moderator');
    assert.match(created.stdout, /^Created pat@confab\.local \(id \d+\), API key: [A-Za-z0-9]{32}\n$/);
    const key = created.stdout.trim().split(' ').pop();
    assert.equal((await cli('api-key', '--email', 'pat@confab.local')).stdout.trim(), key);
    const rotated = (await cli('api-key', '--email', 'pat@confab.local', '--rotate')).stdout.trim();
    assert.notEqual(rotated, key);
    assert.equal(rotated.length, 32);
    await assert.rejects(cli('create-user', '--email', 'pat@confab.local', '--name', 'Again'), /Email 'pat@confab.local' already in use/);
    assert.equal((await cli('migrate')).stdout, 'The store is up to date.\n');
  });
});

describe('starting Confab in development mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-dev-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seeds the dev organization with its conversation', async () => {
    const lines: string[] = [];
    const original = console.log;
    console.log = (line: string) => void lines.push(String(line));
    const server = await startServer(loadConfig({ port: '0', 'data-dir': dataDir, dev: true, 'log-level': 'fatal' }, {})).finally(() => {
      console.log = original;
    });
    try {
      assert.match(lines[0]!, /^Seeded the dev organization "Confab Dev"/);
      const count = await server.services.db.selectFrom('message').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.ok(Number(count.n) >= 30);
    } finally {
      await server.stop();
    }
  });
});

describe('starting Confab on a full disk', { skip: SMALL_DISK_UNAVAILABLE ?? false }, () => {
  let disk: SmallDisk;
  after(() => disk?.unmount());

  /** Runs the command to its end: its exit code and what it wrote to standard error. */
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { env: { ...process.env, CONFAB_LOG_LEVEL: 'warn' }, timeout: 60_000 }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );

  it('exits with one line naming the data directory and the space it needs, for a new store and an existing one', async () => {
    disk = new SmallDisk(4096);
    const dataDir = join(disk.dir, 'data');
    const expected = `Confab cannot start: the disk holding the data directory ${dataDir} is full (0.0 MB free); it needs at least 16 MB free.\n`;
    // A new store: SQLite cannot write its first page (SQLITE_FULL).
    disk.fill();
    assert.deepEqual(await cli('serve', '--port', '0', '--data-dir', dataDir), { code: 1, stderr: expected });
    // A store made while there was room: SQLite cannot make its shared-memory file (SQLITE_IOERR_SHMSIZE).
    disk.free();
    rmSync(dataDir, { recursive: true, force: true });
    assert.equal((await cli('migrate', '--data-dir', dataDir)).code, 0);
    disk.fill();
    assert.deepEqual(await cli('serve', '--port', '0', '--data-dir', dataDir), { code: 1, stderr: expected });
    // The other commands say the same.
    assert.deepEqual(await cli('create-user', '--email', 'pat@confab.local', '--name', 'Pat', '--data-dir', dataDir), { code: 1, stderr: expected });
  });
});
