// The store options both benchmark commands take: --data-dir DIR or --database-url URL.
import { join, resolve } from 'node:path';

export interface StoreChoice {
  kind: 'sqlite' | 'postgres';
  /** Folder of confab.db (SQLite). */
  dataDir: string | null;
  databaseUrl: string | null;
  /** What to call the store in reports: the folder or the URL without credentials. */
  label: string;
}

export const DEFAULT_DATA_DIR = 'data/bench';

export function storeChoice(dataDir: string | undefined, databaseUrl: string | undefined): StoreChoice {
  if (dataDir && databaseUrl) throw new Error('give either --data-dir or --database-url, not both');
  if (databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error(`--database-url must be postgres://..., got '${databaseUrl}'`);
    const url = new URL(databaseUrl);
    url.password = '';
    return { kind: 'postgres', dataDir: null, databaseUrl, label: url.toString() };
  }
  const dir = resolve(dataDir ?? DEFAULT_DATA_DIR);
  return { kind: 'sqlite', dataDir: dir, databaseUrl: null, label: join(dir, 'confab.db') };
}

export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} needs a positive integer, got '${value}'`);
  return n;
}
