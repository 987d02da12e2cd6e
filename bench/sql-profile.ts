// npx tsx bench/sql-profile.ts [--data-dir DIR | --database-url URL] [--requests N] [--explain] METHOD PATH [FORM_BODY]
// Runs one API request N times in this process against a built data set, through a Kysely that
// times every statement: prints the time per request, the share spent in SQL, the statements by
// total time and, with --explain, the store's plan for the slowest ones. Messages it sends are
// deleted again afterwards. The user is the one the load runner picks (see lib/discover.ts).
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { parseArgs } from 'node:util';
import { openSqliteConnection } from '../src/db/sqlite.js';
import { buildApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { sqlitePathFor, type Store } from '../src/db/connect.js';
import type { Database } from '../src/db/schema.js';
import { LocalBus } from '../src/events/bus.js';
import { withQueues } from '../src/events/registry.js';
import { systemClock } from '../src/services.js';
import { discoverTargets, removeSentMessages } from './lib/discover.js';
import { COMMON_SEARCH_WORD } from './lib/text.js';
import { positiveInt, storeChoice } from './lib/store-options.js';

interface Timing {
  count: number;
  ms: number;
  sample: CompiledQuery;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, requests: { type: 'string' },
      explain: { type: 'boolean' }, top: { type: 'string' },
    },
  });
  const [method, path, body] = positionals;
  if (!method || !path) throw new Error('usage: npx tsx bench/sql-profile.ts [--data-dir DIR] [--requests N] [--explain] METHOD PATH [FORM_BODY]');
  const choice = storeChoice(values['data-dir'], values['database-url']);
  const requests = positiveInt('requests', values.requests, 50);
  const timings = new Map<string, Timing>();
  let recording = false;
  const log = (event: { level: string; query: CompiledQuery; queryDurationMillis: number }) => {
    if (!recording) return;
    const timing = timings.get(event.query.sql) ?? { count: 0, ms: 0, sample: event.query };
    timing.count++;
    timing.ms += event.queryDurationMillis;
    timings.set(event.query.sql, timing);
  };
  let db: Kysely<Database>;
  if (choice.kind === 'sqlite') {
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqliteConnection(sqlitePathFor(choice.dataDir!)) }), log });
  } else {
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: choice.databaseUrl!, max: 4 }) }), log });
  }
  // One connection for reads and writes: the profile runs one request at a time.
  const store: Store = { db, kind: choice.kind, transact: (work) => db.transaction().execute(work), close: () => db.destroy() };
  const targets = await discoverTargets(store, COMMON_SEARCH_WORD);
  const app = await buildApp(withQueues({ config: { ...defaultConfig }, store, db, clock: systemClock, bus: new LocalBus() }));
  const authorization = `Basic ${Buffer.from(`${targets.user.email}:${targets.user.apiKey}`).toString('base64')}`;
  const headers: Record<string, string> = { authorization, ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) };
  const send = () => app.inject({ method: method as 'GET', url: path, headers, ...(body ? { payload: body } : {}) });
  try {
    const first = await send();
    console.log(`${method} ${path} as ${targets.user.email}: ${first.statusCode} ${first.body.slice(0, 160)}`);
    recording = true;
    const started = performance.now();
    for (let i = 0; i < requests; i++) await send();
    const perRequest = (performance.now() - started) / requests;
    recording = false;
    const sqlMs = [...timings.values()].reduce((sum, t) => sum + t.ms, 0) / requests;
    console.log(`${requests} requests: ${perRequest.toFixed(2)} ms each, of which SQL ${sqlMs.toFixed(2)} ms (${((100 * sqlMs) / perRequest).toFixed(0)}%)`);
    const sorted = [...timings.values()].sort((a, b) => b.ms - a.ms).slice(0, positiveInt('top', values.top, 8));
    for (const t of sorted) {
      console.log(`\n${(t.ms / requests).toFixed(3)} ms/request, ${t.count / requests}x: ${t.sample.sql.replace(/\s+/g, ' ').slice(0, 400)}`);
      if (values.explain && /^\s*select/i.test(t.sample.sql)) {
        const prefix = choice.kind === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN ';
        const plan = await db.executeQuery(CompiledQuery.raw(prefix + t.sample.sql, [...t.sample.parameters]));
        for (const row of plan.rows as Array<Record<string, unknown>>) console.log(`    ${String(row.detail ?? row['QUERY PLAN'])}`);
      }
    }
  } finally {
    if (method.toUpperCase() === 'POST' && path.startsWith('/api/v1/messages')) await removeSentMessages(store, targets);
    await app.close();
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
