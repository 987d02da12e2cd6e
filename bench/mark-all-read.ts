// POST /mark_all_as_read over a large unread backlog, while other requests keep coming.
// Builds its own data set (one reader with --messages unread stream messages, on SQLite in a
// temporary folder), serves it in this process on a real port, measures GET /users/me alone,
// then calls /mark_all_as_read until it answers complete while the same probes keep running.
// Prints: total time, calls needed, batches and the longest one (each batch is one transaction),
// and GET /users/me p50/p99/max unloaded and meanwhile.
// Usage: npx tsx bench/mark-all-read.ts [--messages 100000] [--probes 4] [--budget 50] [--batch 1000]
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { setBulkLimits } from '../src/actions/batched-work.js';
import { runSystemAction } from '../src/actions/context.js';
import { doCreateRealm } from '../src/actions/realm-create.js';
import { doCreateStream } from '../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../src/actions/subscriptions.js';
import { doCreateUser } from '../src/actions/user-create.js';
import { FLAG_BITS } from '../src/lib/message-flags.js';
import type { Services } from '../src/services.js';
import { ColumnBuffer } from './lib/bulk.js';
import { MESSAGE_COLUMNS, USER_MESSAGE_COLUMNS } from './lib/messages.js';
import { latencySummary, ms, startProbes } from './lib/probes.js';
import { basicAuth, call, percentile } from './lib/http-client.js';
import { positiveInt } from './lib/store-options.js';
import { openTempServer } from './lib/temp-server.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string' }, probes: { type: 'string' }, budget: { type: 'string' }, batch: { type: 'string' },
    'probe-seconds': { type: 'string' }, help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log('Usage: npx tsx bench/mark-all-read.ts [--messages 100000] [--probes 4] [--budget 50] [--batch 1000] [--probe-seconds 5]');
  process.exit(0);
}
const messageCount = positiveInt('messages', values.messages, 100_000);
const probes = positiveInt('probes', values.probes, 4);
const probeSeconds = positiveInt('probe-seconds', values['probe-seconds'], 5);
if (values.budget !== undefined) setBulkLimits({ timeBudgetSeconds: Number(values.budget) });
if (values.batch !== undefined) setBulkLimits({ readBatchSize: positiveInt('batch', values.batch, 1000) });
const log = (line: string) => console.error(line);

/** An organization with a writer and a reader in one stream, and the reader's unread backlog. */
async function buildData(services: Services) {
  const { realm, owner, reader, stream } = await runSystemAction(services, async (ctx) => {
    const { realm, owner } = await doCreateRealm(ctx, {
      name: 'Mark-read bench',
      url: 'http://127.0.0.1',
      owner: { email: 'writer@bench.test', fullName: 'Writer', password: 'bench-password' },
    });
    const reader = await doCreateUser(ctx, realm, { email: 'reader@bench.test', fullName: 'Reader', subscribeToDefaults: false });
    const stream = await doCreateStream(ctx, realm, { name: 'backlog', creatorId: owner.id });
    await bulkAddSubscriptions(ctx, realm, [stream], [owner, reader]);
    return { realm, owner, reader, stream };
  });
  const messages = new ColumnBuffer(MESSAGE_COLUMNS);
  const userMessages = new ColumnBuffer(USER_MESSAGE_COLUMNS);
  const start = Math.floor(Date.now() / 1000) - messageCount;
  const firstId = 1 + ((await services.db.selectFrom('message').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);
  for (let i = 0; i < messageCount; i++) {
    const id = firstId + i;
    const text = `Backlog message ${i}`;
    messages.push(id, realm.id, owner.id, stream.recipient_id, `topic ${i % 50}`, text, `<p>${text}</p>`, 1, start + i, 'website', 0, 0, 0, 0);
    userMessages.push(owner.id, id, FLAG_BITS.read);
    userMessages.push(reader.id, id, 0);
    if (messages.count === 10_000 || i === messageCount - 1) {
      await services.db.transaction().execute(async (tx) => {
        await messages.flush(tx, services.store.kind, 'message');
        await userMessages.flush(tx, services.store.kind, 'user_message');
      });
    }
  }
  await services.db.updateTable('stream').set({ first_message_id: firstId }).where('id', '=', stream.id).execute();
  return { reader };
}

async function unreadCount(services: Services, userId: number): Promise<number> {
  const row = await services.db
    .selectFrom('user_message')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where(sql<boolean>`(flags & 1) = 0`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `probes` clients each calling GET /users/me back to back until stopped. */
const probeLoop = (port: number, auth: string) => startProbes(probes, () => call(port, 'GET', '/users/me', auth));

async function main() {
  const server = await openTempServer('confab-mark-read-');
  const { services } = server;
  try {
    let started = performance.now();
    const { reader } = await buildData(services);
    log(`built ${messageCount.toLocaleString()} unread messages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const port = await server.listen();
    const auth = basicAuth(reader.delivery_email, reader.api_key);
    log(`unread before: ${(await unreadCount(services, reader.id)).toLocaleString()}`);

    // Warm up, then GET /users/me with nothing else going on.
    for (let i = 0; i < 200; i++) await call(port, 'GET', '/users/me', auth);
    const idle = probeLoop(port, auth);
    await new Promise((resolve) => setTimeout(resolve, probeSeconds * 1000));
    const unloaded = await idle.stop();

    const batches: number[] = [];
    setBulkLimits({ onBatch: (milliseconds) => batches.push(milliseconds) });
    const busy = probeLoop(port, auth);
    started = performance.now();
    let calls = 0;
    for (;;) {
      calls++;
      const answer = await call(port, 'POST', '/mark_all_as_read', auth);
      if (answer.status !== 200) throw new Error(`mark_all_as_read answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if (answer.body.complete === true) break;
    }
    const total = performance.now() - started;
    const meanwhile = await busy.stop();
    const remaining = await unreadCount(services, reader.id);

    const sortedBatches = [...batches].sort((a, b) => a - b);
    console.log(`mark_all_as_read over ${messageCount.toLocaleString()} unread messages (SQLite, ${probes} probe clients)`);
    console.log(`  total: ${ms(total)} in ${calls} call(s); unread left: ${remaining}`);
    console.log(`  batches: ${batches.length}, longest ${ms(sortedBatches.at(-1) ?? NaN)}, median ${ms(percentile(sortedBatches, 50))}`);
    console.log(`  GET /users/me unloaded:  ${latencySummary(unloaded)}`);
    console.log(`  GET /users/me meanwhile: ${latencySummary(meanwhile)}`);
  } finally {
    await server.close();
  }
}

await main();
