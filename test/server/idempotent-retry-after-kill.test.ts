// A send whose answer never reached the client: the server process is killed (SIGKILL) once the
// message is committed, before the client reads anything. After a restart on the same store, the
// client's retry with the same Idempotency-Key must answer the stored message's id and store none.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { StoreKind } from '../../src/db/connect.js';
import { freshDatabase, testDialects } from '../support/dialects.js';
import { freePort } from '../support/nginx.js';

const KEY = 'retry-after-kill-1';
const CONTENT = `sent just before the crash ${randomBytes(4).toString('hex')}`;

/** Reads the stored messages with CONTENT straight from the store, as another process. */
interface Peek {
  ids(): Promise<number[]>;
  close(): Promise<void>;
}

async function peekSqlite(dataDir: string): Promise<Peek> {
  let db: SQLite.Database | null = null;
  return {
    async ids() {
      // The file appears once the server has created it.
      db ??= new SQLite(join(dataDir, 'confab.db'), { readonly: true, fileMustExist: true });
      return db.prepare('SELECT id FROM message WHERE content = ?').all(CONTENT).map((row) => (row as { id: number }).id);
    },
    async close() {
      db?.close();
    },
  };
}

async function peekPostgres(databaseUrl: string): Promise<Peek> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async ids() {
      const { rows } = await client.query('SELECT id FROM message WHERE content = $1', [CONTENT]);
      return rows.map((row: { id: number }) => Number(row.id));
    },
    close: () => client.end(),
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const by = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    assert.ok(Date.now() < by, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const dialect of testDialects()) {
  describe(`a retry after the server was killed mid-answer [${dialect}]`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-kill-'));
    let database: Awaited<ReturnType<typeof freshDatabase>> | null = null;
    let child: ChildProcess | null = null;
    after(async () => {
      child?.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    });

    async function storeFlags(kind: StoreKind): Promise<{ flags: string[]; peek: () => Promise<Peek> }> {
      if (kind === 'sqlite') return { flags: [], peek: () => peekSqlite(dataDir) };
      database = await freshDatabase('confab_kill');
      const { url } = database;
      return { flags: ['--database-url', url], peek: () => peekPostgres(url) };
    }

    async function start(port: number, flags: string[]): Promise<ChildProcess> {
      const args = ['--import', 'tsx', 'src/main.ts', 'serve', '--dev', '--port', String(port), '--data-dir', dataDir, '--rate-limits', 'off', ...flags];
      const started = spawn(process.execPath, args, { env: { ...process.env, CONFAB_LOG_LEVEL: 'fatal' }, stdio: ['ignore', 'ignore', 'inherit'] });
      await waitFor('the server to answer', async () => {
        assert.equal(started.exitCode, null, 'the server exited');
        return (await fetch(`http://127.0.0.1:${port}/health/ready`)).ok || undefined;
      });
      return started;
    }

    it('answers the retry with the id of the message stored before the kill, and stores it once', async () => {
      const { flags, peek } = await storeFlags(dialect);
      const port = await freePort();
      child = await start(port, flags);
      const keyRes = await fetch(`http://127.0.0.1:${port}/api/v1/dev_fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'mark@confab.test' }) });
      const { api_key: apiKey } = (await keyRes.json()) as { api_key: string };
      const authorization = `Basic ${Buffer.from(`mark@confab.test:${apiKey}`).toString('base64')}`;
      const form = new URLSearchParams({ type: 'stream', to: 'general', topic: 'crash', content: CONTENT }).toString();

      // The send goes out on a socket nobody reads: whatever the server answers is lost with it.
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.pause();
      socket.write(
        [
          'POST /api/v1/messages HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          `Authorization: ${authorization}`,
          `Idempotency-Key: ${KEY}`,
          'Content-Type: application/x-www-form-urlencoded',
          `Content-Length: ${Buffer.byteLength(form)}`,
          '',
          form,
        ].join('\r\n'),
      );
      const store = await peek();
      try {
        const [storedId] = await waitFor('the message to be committed', async () => {
          const ids = await store.ids();
          return ids.length > 0 ? ids : undefined;
        });
        const killed = child;
        const exited = new Promise((resolve) => killed.once('exit', resolve));
        killed.kill('SIGKILL');
        await exited;
        child = null;
        socket.destroy();

        child = await start(port, flags);
        const retry = await fetch(`http://127.0.0.1:${port}/api/v1/messages`, {
          method: 'POST',
          headers: { authorization, 'idempotency-key': KEY, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        });
        assert.deepEqual({ status: retry.status, body: await retry.json() }, { status: 200, body: { result: 'success', msg: '', id: storedId } });
        assert.deepEqual(await store.ids(), [storedId]);
      } finally {
        await store.close();
      }
    });
  });
}
