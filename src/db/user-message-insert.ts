// Writing the user_message rows of a new message, the largest insert the server makes (a row per
// recipient). Built without the query builder, whose cost grows with every bound value: one
// unnest() of three arrays on PostgreSQL, whatever the row count; on SQLite, multi-row VALUES
// statements whose text is made once per row count.
import { CompiledQuery } from 'kysely';
import { dialectOf } from './migration-helpers.js';
import type { Tx } from './schema.js';

export interface UserMessageRow {
  user_id: number;
  message_id: number;
  flags: number;
}

const POSTGRES_INSERT =
  'INSERT INTO user_message (user_id, message_id, flags) SELECT * FROM unnest($1::int4[], $2::int4[], $3::int4[])';
/** Rows per SQLite statement (three values each, far below its limit on bound values). */
const SQLITE_CHUNK = 500;
const sqliteText = new Map<number, string>();

function sqliteInsert(rows: number): string {
  let text = sqliteText.get(rows);
  if (text === undefined) {
    text = `INSERT INTO user_message (user_id, message_id, flags) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?)').join(', ')}`;
    sqliteText.set(rows, text);
  }
  return text;
}

export async function insertUserMessages(tx: Tx, rows: readonly UserMessageRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(tx) === 'postgres') {
    const columns = [rows.map((r) => r.user_id), rows.map((r) => r.message_id), rows.map((r) => r.flags)];
    await tx.executeQuery(CompiledQuery.raw(POSTGRES_INSERT, columns));
    return;
  }
  for (let start = 0; start < rows.length; start += SQLITE_CHUNK) {
    const chunk = rows.slice(start, start + SQLITE_CHUNK);
    const values: number[] = [];
    for (const row of chunk) values.push(row.user_id, row.message_id, row.flags);
    await tx.executeQuery(CompiledQuery.raw(sqliteInsert(chunk.length), values));
  }
}
