// Large batched inserts through Kysely with precompiled statements: multi-row VALUES on
// SQLite, one unnest() of column arrays per statement on PostgreSQL (COPY-like: the row
// count does not change the statement).
import { CompiledQuery, type Kysely } from 'kysely';
import type { StoreKind } from '../../src/db/connect.js';

export interface Column {
  name: string;
  /** PostgreSQL element type for unnest(), e.g. int4, int8, text. */
  pgType: 'int4' | 'int8' | 'text';
}

/** SQLite allows 32,766 bound values per statement. */
const SQLITE_MAX_VALUES = 32_000;
const POSTGRES_MAX_ROWS = 20_000;

const valuesText = new Map<string, string>();

function sqliteValues(columns: number, rows: number): string {
  const key = `${columns}x${rows}`;
  let text = valuesText.get(key);
  if (!text) {
    const tuple = `(${new Array(columns).fill('?').join(',')})`;
    text = new Array(rows).fill(tuple).join(',');
    valuesText.set(key, text);
  }
  return text;
}

/**
 * Inserts `count` rows given column by column (data[c][r] is row r of column c), in as few
 * statements as the store allows. Returns the number of statements run.
 */
export async function insertColumns(
  db: Kysely<any>,
  kind: StoreKind,
  table: string,
  columns: readonly Column[],
  data: ReadonlyArray<ArrayLike<unknown>>,
  count: number,
): Promise<number> {
  const names = columns.map((c) => c.name).join(', ');
  let statements = 0;
  if (kind === 'postgres') {
    const casts = columns.map((c, i) => `$${i + 1}::${c.pgType}[]`).join(', ');
    const text = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${casts})`;
    for (let start = 0; start < count; start += POSTGRES_MAX_ROWS) {
      const end = Math.min(count, start + POSTGRES_MAX_ROWS);
      const params = data.map((column) => Array.prototype.slice.call(column, start, end));
      await db.executeQuery(CompiledQuery.raw(text, params));
      statements++;
    }
    return statements;
  }
  const perStatement = Math.max(1, Math.floor(SQLITE_MAX_VALUES / columns.length));
  for (let start = 0; start < count; start += perStatement) {
    const rows = Math.min(perStatement, count - start);
    const params = new Array<unknown>(rows * columns.length);
    let k = 0;
    for (let r = start; r < start + rows; r++) {
      for (let c = 0; c < columns.length; c++) params[k++] = data[c]![r];
    }
    await db.executeQuery(CompiledQuery.raw(`INSERT INTO ${table} (${names}) VALUES ${sqliteValues(columns.length, rows)}`, params));
    statements++;
  }
  return statements;
}

/** Growable column buffers for one table, cleared after each flush. */
export class ColumnBuffer {
  readonly data: unknown[][];
  count = 0;

  constructor(readonly columns: readonly Column[]) {
    this.data = columns.map(() => []);
  }

  push(...values: unknown[]): void {
    for (let c = 0; c < values.length; c++) this.data[c]![this.count] = values[c];
    this.count++;
  }

  async flush(db: Kysely<any>, kind: StoreKind, table: string): Promise<number> {
    if (this.count === 0) return 0;
    const statements = await insertColumns(db, kind, table, this.columns, this.data, this.count);
    for (const column of this.data) column.length = 0;
    this.count = 0;
    return statements;
  }
}
