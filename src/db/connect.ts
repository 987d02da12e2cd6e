// Opens one of the two stores behind the same Kysely interface and brings it to the latest schema.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  kind: StoreKind;
  close(): Promise<void>;
}

// int8 (COUNT(*), bigint timestamps) as JS numbers: every value we keep fits in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface StoreOptions {
  /** postgres://...; absent means the embedded SQLite store. */
  databaseUrl?: string | null;
  /** SQLite file, or ':memory:'. */
  sqlitePath?: string;
  /** PostgreSQL schema to use (tests isolate themselves with a fresh one). */
  pgSchema?: string;
  poolSize?: number;
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const path = options.sqlitePath ?? ':memory:';
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('cache_size = -65536');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, kind: 'sqlite', close: () => db.destroy() };
}

export function sqlitePathFor(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return join(dataDir, 'confab.db');
}

/** pgSchema: the PostgreSQL schema the store lives in, when not the default one. */
export async function migrateToLatest(db: Kysely<Database>, pgSchema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
