// Writing a new message and its user_message rows, the largest insert the server makes (a row per
// recipient). The rows are built without the query builder, whose cost grows with every bound
// value. On PostgreSQL the message and its rows go in as one statement, the rows from unnest() of
// two arrays whatever their count: a send waits for each round trip behind whatever else the event
// loop is doing. On SQLite, whose calls do not wait, multi-row VALUES statements follow the message,
// their text made once per row count.
import { CompiledQuery, type Insertable } from 'kysely';
import { dialectOf } from './migration-helpers.js';
import type { MessageTable, Tx } from './schema.js';

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

async function insertSqliteRows(tx: Tx, messageId: number, flags: ReadonlyMap<number, number>): Promise<void> {
  const rows = [...flags];
  for (let start = 0; start < rows.length; start += SQLITE_CHUNK) {
    const chunk = rows.slice(start, start + SQLITE_CHUNK);
    const values: number[] = [];
    for (const [userId, bits] of chunk) values.push(userId, messageId, bits);
    await tx.executeQuery(CompiledQuery.raw(sqliteInsert(chunk.length), values));
  }
}

/** Inserts a message and a user_message row per recipient (user id -> flags); returns the message id. */
export async function insertMessage(tx: Tx, message: Insertable<MessageTable>, flags: ReadonlyMap<number, number>): Promise<number> {
  const insert = tx.insertInto('message').values(message).returning('id');
  if (dialectOf(tx) !== 'postgres') {
    const { id } = await insert.executeTakeFirstOrThrow();
    await insertSqliteRows(tx, id, flags);
    return id;
  }
  const compiled = insert.compile();
  const n = compiled.parameters.length;
  // A data-modifying WITH runs once whether or not the outer query reads it.
  const text = `WITH m AS (${compiled.sql}), um AS (INSERT INTO user_message (user_id, message_id, flags) SELECT t.u, m.id, t.f FROM m, unnest($${n + 1}::int4[], $${n + 2}::int4[]) AS t(u, f)) SELECT id FROM m`;
  const result = await tx.executeQuery<{ id: number }>(CompiledQuery.raw(text, [...compiled.parameters, [...flags.keys()], [...flags.values()]]));
  return result.rows[0]!.id;
}
