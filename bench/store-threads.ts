// npm run bench:store -- --data-dir DIR [--mode main|threads|writer-thread|all] [--rounds N] [--readers N]
// The embedded store alone, without HTTP: the same reads and writes on the event loop's own
// connections (`main`, the store before it had threads), as the store runs them (`threads`: reads
// on reader threads, the writer on the event loop) and with the writer on a thread of its own too
// (`writer-thread`), reporting what the event loop goes through (worst delay, the share of time it
// was busy) beside each throughput.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openStore, sqlitePathFor, type Store } from '../src/db/connect.js';
import { GroupCommitter } from '../src/db/group-commit.js';
import type { Database } from '../src/db/schema.js';
import { openSqliteConnection } from '../src/db/sqlite.js';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, mode: { type: 'string' }, rounds: { type: 'string' }, readers: { type: 'string' } },
});
const dataDir = values['data-dir'] ?? 'data/bench';
const rounds = Number(values.rounds ?? 1);
const modes = values.mode === 'all' || !values.mode ? ['main', 'threads', 'writer-thread'] : [values.mode];

/** The store as it was: one connection on the event loop for reads, one for writes. */
function mainThreadStore(path: string): Store {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqliteConnection(path, 'reader') }) });
  const writer = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqliteConnection(path) }) });
  const committer = new GroupCommitter(writer);
  return { db, kind: 'sqlite', transact: (work) => committer.run(work), close: async () => { await writer.destroy(); await db.destroy(); } };
}

interface Figure { name: string; ops: number; ms: number; worstDelayMs: number; busy: number }

/** Runs `count` calls of `op`, `concurrency` at a time, watching the event loop meanwhile. */
async function measure(name: string, count: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<Figure> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const elu = performance.eventLoopUtilization();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      await op(next++);
      // As a server does between requests: the loop turns, so its delay is seen in both modes.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }));
  const ms = performance.now() - started;
  histogram.disable();
  return { name, ops: count, ms, worstDelayMs: histogram.max / 1e6, busy: performance.eventLoopUtilization(elu).utilization };
}

async function run(mode: string): Promise<Figure[]> {
  const path = sqlitePathFor(dataDir);
  const store =
    mode === 'main'
      ? mainThreadStore(path)
      : openStore({ sqlitePath: path, readerThreads: Number(values.readers ?? 1), writerThread: mode === 'writer-thread' });
  const users = (await store.db.selectFrom('user_profile').select('id').execute()).map((r) => r.id);
  // Until the reader thread has started, reads run on the free writer (on the event loop): measure after.
  while (store.threads?.readers().some((thread) => !thread.ready)) await new Promise((resolve) => setTimeout(resolve, 10));
  const realmId = (await store.db.selectFrom('realm').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const figures: Figure[] = [];
  const pointRead = (i: number) => store.db.selectFrom('user_profile').selectAll().where('id', '=', users[i % users.length]!).executeTakeFirst();
  figures.push(await measure('point reads (a user by id), 1 at a time', 5000, 1, pointRead));
  figures.push(await measure('point reads (a user by id), 50 at a time', 20000, 50, pointRead));
  const fetch = (i: number) =>
    store.db.selectFrom('user_message as um').innerJoin('message as m', 'm.id', 'um.message_id').selectAll('m').select('um.flags')
      .where('um.user_id', '=', users[i % users.length]!).orderBy('um.message_id', 'desc').limit(100).execute();
  figures.push(await measure('fetch 100 newest messages of a user, 10 at a time', 1000, 10, fetch));
  const search = () => sql`SELECT m.id, m.rendered_content FROM message m WHERE m.id IN (SELECT rowid FROM message_fts WHERE message_fts MATCH 'release') ORDER BY m.id DESC LIMIT 100`.execute(store.db);
  figures.push(await measure('search "release", 100 newest, 1 at a time', 30, 1, search));
  // Point reads while searches run: what every other client sees during a search.
  const during = measure('point reads while 2 searches run', 3000, 10, pointRead);
  const searches = Promise.all([search(), search()]);
  figures.push(await during);
  await searches;
  const write = (i: number) => store.transact((tx) => tx.updateTable('realm').set({ description: `bench ${i}` }).where('id', '=', realmId).execute());
  figures.push(await measure('one-row actions (group commit), 50 at a time', 5000, 50, write));
  await store.close();
  return figures;
}

for (let round = 1; round <= rounds; round++) {
  for (const mode of modes) {
    for (const f of await run(mode)) {
      console.log(
        `${mode.padEnd(13)} ${f.name.padEnd(52)} ${Math.round((f.ops * 1000) / f.ms).toString().padStart(7)} ops/s  worst loop delay ${f.worstDelayMs.toFixed(1).padStart(6)} ms  loop busy ${(f.busy * 100).toFixed(0).padStart(3)}%`,
      );
    }
  }
}
