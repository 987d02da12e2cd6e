// Which stores the suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateToLatest, openStore, type Store, type StoreKind } from '../../src/db/connect.js';

export function testDialects(): StoreKind[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * A fresh, migrated store: an SQLite file in a temporary folder (a file, as in production, so the
 * reader and writer connections are really two), or a new PostgreSQL schema; both removed on close.
 */
export async function freshStore(kind: StoreKind): Promise<Store> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'confab-test-'));
    const store = openStore({ sqlitePath: join(dir, 'confab.db') });
    await migrateToLatest(store.db);
    return {
      ...store,
      async close() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const store = await withSchemaLock(url, async (admin) => {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const opened = openStore({ databaseUrl: url, pgSchema: schema, poolSize: 4 });
    await migrateToLatest(opened.db, schema);
    return opened;
  });
  return {
    ...store,
    async close() {
      await store.close();
      await withSchemaLock(url, (cleanup) => cleanup.query(`DROP SCHEMA ${schema} CASCADE`));
    },
  };
}

/**
 * Test files share one database, each in a schema of its own. Kysely's migrator lists every schema
 * and asks about each; a schema dropped by another file in between makes that query fail. Creating,
 * migrating and dropping therefore take turns under one advisory lock.
 */
async function withSchemaLock<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(72211)');
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A whole PostgreSQL database of its own on TEST_DATABASE_URL's server, for tests that run the
 * server as a child process (which migrates its database itself); `drop` removes it.
 */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
