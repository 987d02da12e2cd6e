// A thread that owns one SQLite connection and runs the queries the event loop sends it, so the
// B-tree work of every query happens off the event loop. It answers each request, in order, with
// rows (or what a write changed) or with the error and its SQLite code.
import { parentPort, workerData } from 'node:worker_threads';
import type { SqliteStatement } from 'kysely';
import { type ConnectionRole, openSqliteConnection } from './sqlite.js';
import type { ThreadReply, ThreadRequest } from './sqlite-protocol.js';

const { path, role } = workerData as { path: string; role: ConnectionRole };
const port = parentPort!;

function describe(error: unknown): ThreadReply['error'] {
  const { message, code, name } = (error ?? {}) as { message?: unknown; code?: unknown; name?: unknown };
  return {
    message: typeof message === 'string' ? message : String(error),
    name: typeof name === 'string' ? name : 'Error',
    ...(typeof code === 'string' ? { code } : {}),
  };
}

function run(statement: SqliteStatement, parameters: readonly unknown[]): Omit<ThreadReply, 'id'> {
  if (statement.reader) return { rows: statement.all(parameters) as unknown[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], changes: Number(changes), insertId: lastInsertRowid === undefined ? undefined : BigInt(lastInsertRowid) };
}

let connection;
try {
  connection = openSqliteConnection(path, role);
} catch (error) {
  // Every request is answered with the failure to open (a missing folder, a file that is no database).
  const failure = describe(error);
  port.on('message', (request: ThreadRequest) => port.postMessage({ id: request.id, error: failure } satisfies ThreadReply));
}
if (connection) {
  const db = connection;
  port.on('message', (request: ThreadRequest) => {
    if (request.close) {
      db.close();
      port.postMessage({ id: request.id, rows: [] } satisfies ThreadReply);
      port.close();
      return;
    }
    let reply: ThreadReply;
    try {
      reply = { id: request.id, ...run(db.prepare(request.sql), request.parameters) };
    } catch (error) {
      reply = { id: request.id, error: describe(error) };
    }
    port.postMessage(reply);
  });
}
