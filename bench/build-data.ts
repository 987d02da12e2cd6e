// npm run bench:data [-- --data-dir DIR | --database-url postgres://...] [--messages N]
// Builds the benchmark data set (1 organization, 1,000 users, 200 streams, 1,000,000 messages by
// default) into an empty store, then prints the totals and a few users' API keys.
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { migrateToLatest, openStore, sqlitePathFor } from '../src/db/connect.js';
import { Role } from '../src/lib/roles.js';
import { buildDataSet } from './lib/build.js';
import { OWNER_PASSWORD } from './lib/organization.js';
import { positiveInt, storeChoice } from './lib/store-options.js';

const USAGE = `Usage: npm run bench:data -- [options]
  --data-dir DIR        build the embedded SQLite store in DIR (default data/bench)
  --database-url URL    build into this (empty) PostgreSQL database instead
  --messages N          messages to write (default 1000000)
  --users N             people (default 1000; 5 integration bots come on top)
  --streams N           streams (default 200)
  --direct-share F      share of direct messages (default 0.25)
  --seed N              random seed (default 1); the same seed builds the same set
  --realm-url URL       the organization's URL (default http://127.0.0.1:9991)
  --force               replace an existing SQLite store in DIR`;

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, messages: { type: 'string' },
      users: { type: 'string' }, streams: { type: 'string' }, 'direct-share': { type: 'string' },
      seed: { type: 'string' }, 'realm-url': { type: 'string' }, force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return void console.log(USAGE);
  const choice = storeChoice(values['data-dir'], values['database-url']);
  const users = positiveInt('users', values.users, 1000);
  const streams = positiveInt('streams', values.streams, 200);
  const messages = positiveInt('messages', values.messages, 1_000_000);
  const seed = positiveInt('seed', values.seed, 1);
  const directShare = Number(values['direct-share'] ?? 0.25);
  if (!(directShare >= 0 && directShare <= 1)) throw new Error('--direct-share must be between 0 and 1');
  if (users < 3) throw new Error('--users must be at least 3');

  let sqlitePath: string | null = null;
  if (choice.kind === 'sqlite') {
    sqlitePath = sqlitePathFor(choice.dataDir!);
    if (existsSync(sqlitePath)) {
      if (!values.force) throw new Error(`${sqlitePath} exists; pass --force to replace it`);
      for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
    }
  }
  const store = choice.kind === 'sqlite' ? openStore({ sqlitePath: sqlitePath! }) : openStore({ databaseUrl: choice.databaseUrl });
  const started = Date.now();
  try {
    await migrateToLatest(store.db);
    const result = await buildDataSet(store, {
      users, streams, messages, directShare, seed,
      realmUrl: values['realm-url'] ?? 'http://127.0.0.1:9991',
      end: Math.floor(Date.now() / 1000),
    });
    const { totals, seconds, org, plan } = result;
    const sample = [
      ...org.users.filter((u) => u.role === Role.OWNER).slice(0, 1),
      ...org.users.filter((u) => u.role === Role.MEMBER && !u.is_bot).slice(0, 3),
      ...org.users.filter((u) => u.role === Role.GUEST).slice(0, 1),
    ];
    const fifty = org.streams.find((_, i) => plan.streams[i]!.subscribers.length === 50);
    const info = {
      built_at: new Date().toISOString(),
      store: choice.label,
      realm_url: org.realm.url,
      options: { users, streams, messages, directShare, seed },
      totals,
      seconds: { ...seconds, total: (Date.now() - started) / 1000 },
      stream_with_50_subscribers: fifty ? { id: fifty.id, name: fifty.name } : null,
      owner_password: OWNER_PASSWORD,
      users: sample.map((u) => ({ id: u.id, email: u.delivery_email, role: u.role, api_key: u.api_key })),
    };
    console.log(`Built "${org.realm.name}" (${org.realm.url}) in ${choice.label} in ${info.seconds.total.toFixed(0)} s`);
    console.log(`  organization ${seconds.organization.toFixed(1)} s, messages ${seconds.messages.toFixed(1)} s, finishing ${seconds.finish.toFixed(1)} s`);
    for (const [name, value] of Object.entries(totals)) console.log(`  ${name.padEnd(16)} ${value.toLocaleString('en')}`);
    if (sqlitePath) console.log(`  database size    ${(statSync(sqlitePath).size / 2 ** 20).toFixed(0)} MB`);
    console.log('API keys (email:key):');
    for (const u of info.users) console.log(`  ${u.email}:${u.api_key}`);
    if (choice.dataDir) {
      const file = join(choice.dataDir, 'bench-users.json');
      writeFileSync(file, JSON.stringify(info, null, 2) + '\n');
      console.log(`Wrote ${file}`);
    }
  } finally {
    await store.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
