// Moving a large topic to another stream with propagate_mode=change_all, while other requests
// keep coming. Builds its own data set (a --messages topic in a stream of --subscribers people,
// half of whom are also on the destination stream, plus background traffic in other topics) on
// SQLite in a temporary folder or in an empty PostgreSQL database (--database-url), serves it in
// this process on a real port, measures the probe requests alone, then sends the one PATCH while
// the same probes keep running.
// Prints: total time of the request, every transaction meanwhile and the longest one, rows moved
// and rows deleted/added, and the probes' p50/p99/max unloaded and meanwhile.
// Usage: npx tsx bench/move-topic.ts [--messages 10000] [--subscribers 50] [--background 20000]
//        [--probes 4] [--probe-seconds 5] [--database-url postgres://...]
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { runSystemAction } from '../src/actions/context.js';
import { doCreateRealm } from '../src/actions/realm-create.js';
import { doCreateStream } from '../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../src/actions/subscriptions.js';
import { doCreateUser } from '../src/actions/user-create.js';
import type { UserRow } from '../src/db/schema.js';
import { FLAG_BITS } from '../src/lib/message-flags.js';
import type { Services } from '../src/services.js';
import { ColumnBuffer } from './lib/bulk.js';
import { MESSAGE_COLUMNS, USER_MESSAGE_COLUMNS } from './lib/messages.js';
import { latencySummary, ms, startProbes } from './lib/probes.js';
import { basicAuth, call } from './lib/http-client.js';
import { positiveInt } from './lib/store-options.js';
import { openTempServer } from './lib/temp-server.js';

const { values } = parseArgs({
  options: {
    messages: { type: 'string' },
    subscribers: { type: 'string' },
    background: { type: 'string' },
    probes: { type: 'string' },
    'probe-seconds': { type: 'string' },
    'database-url': { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log('Usage: npx tsx bench/move-topic.ts [--messages 10000] [--subscribers 50] [--background 20000] [--probes 4] [--probe-seconds 5] [--database-url URL]');
  process.exit(0);
}
const messageCount = positiveInt('messages', values.messages, 10_000);
const subscriberCount = positiveInt('subscribers', values.subscribers, 50);
const backgroundCount = positiveInt('background', values.background, 20_000);
const probes = positiveInt('probes', values.probes, 4);
const probeSeconds = positiveInt('probe-seconds', values['probe-seconds'], 5);
const log = (line: string) => console.error(line);


const TOPIC = 'the big topic';

/** An organization, the source and destination streams, and the messages. */
async function buildData(services: Services) {
  const built = await runSystemAction(services, async (ctx) => {
    const { realm, owner } = await doCreateRealm(ctx, {
      name: 'Move bench',
      url: 'http://127.0.0.1',
      owner: { email: 'owner@bench.test', fullName: 'Owner', password: 'bench-password' },
    });
    const people: UserRow[] = [owner];
    for (let i = 1; i < subscriberCount; i++) {
      people.push(await doCreateUser(ctx, realm, { email: `person${i}@bench.test`, fullName: `Person ${i}`, subscribeToDefaults: false }));
    }
    const source = await doCreateStream(ctx, realm, { name: 'source', creatorId: owner.id });
    const target = await doCreateStream(ctx, realm, { name: 'destination', creatorId: owner.id });
    await bulkAddSubscriptions(ctx, realm, [source], people);
    await bulkAddSubscriptions(ctx, realm, [target], people.filter((_, i) => i % 2 === 0));
    return { realm, owner, people, source, target };
  });
  const { realm, people, source } = built;
  const messages = new ColumnBuffer(MESSAGE_COLUMNS);
  const userMessages = new ColumnBuffer(USER_MESSAGE_COLUMNS);
  const total = messageCount + backgroundCount;
  const start = Math.floor(Date.now() / 1000) - total;
  const firstId = 1 + ((await services.db.selectFrom('message').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);
  let topicFirstId = 0;
  for (let i = 0; i < total; i++) {
    const id = firstId + i;
    // The big topic's messages are interleaved with background chatter in twenty other topics.
    const inTopic = i % Math.ceil(total / messageCount) === 0 && i / Math.ceil(total / messageCount) < messageCount;
    const topic = inTopic ? TOPIC : `chatter ${i % 20}`;
    if (inTopic && topicFirstId === 0) topicFirstId = id;
    const sender = people[i % people.length]!;
    const text = `${topic} message ${i}`;
    messages.push(id, realm.id, sender.id, source.recipient_id, topic, text, `<p>${text}</p>`, 1, start + i, 'website', 0, 0, 0, 0);
    for (const person of people) userMessages.push(person.id, id, person.id === sender.id || i % 3 !== 0 ? FLAG_BITS.read : 0);
    if (messages.count === 5_000 || i === total - 1) {
      await services.db.transaction().execute(async (tx) => {
        await messages.flush(tx, services.store.kind, 'message');
        await userMessages.flush(tx, services.store.kind, 'user_message');
      });
    }
  }
  await services.db.updateTable('stream').set({ first_message_id: firstId }).where('id', '=', source.id).execute();
  if (services.store.kind === 'postgres') {
    // Rows came with their ids: move the sequence past them so the notices can be sent.
    await sql`SELECT setval(pg_get_serial_sequence('message', 'id'), (SELECT max(id) FROM message))`.execute(services.db);
  }
  // Statistics, as a store that grew by use has them.
  await sql`ANALYZE`.execute(services.db);
  const last = await services.db
    .selectFrom('message')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('recipient_id', '=', source.recipient_id!)
    .where('subject', '=', TOPIC)
    .executeTakeFirstOrThrow();
  return { ...built, lastInTopic: Number(last.id) };
}

/** Times every transaction the store runs from now on. */
function timeTransactions(services: Services): number[] {
  const durations: number[] = [];
  const original = services.store.transact.bind(services.store);
  services.store.transact = async (work) => {
    const started = performance.now();
    try {
      return await original(work);
    } finally {
      durations.push(performance.now() - started);
    }
  };
  return durations;
}

/** `probes` clients alternating GET /users/me and a 20-message topic fetch until stopped. */
function probeLoop(port: number, auth: string, sourceId: number) {
  const narrow = JSON.stringify([{ operator: 'stream', operand: sourceId }, { operator: 'topic', operand: 'chatter 3' }]);
  return startProbes(probes, (n) =>
    n % 2 === 0
      ? call(port, 'GET', '/users/me', auth)
      : call(port, 'GET', '/messages', auth, { anchor: 'newest', num_before: 20, num_after: 0, narrow }),
  );
}

async function count(services: Services, recipientId: number): Promise<number> {
  const row = await services.db
    .selectFrom('message')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('recipient_id', '=', recipientId)
    .where('subject', '=', TOPIC)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function rowCount(services: Services): Promise<number> {
  const row = await services.db.selectFrom('user_message').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function main() {
  const databaseUrl = values['database-url'] ?? null;
  const server = await openTempServer('confab-move-topic-', { databaseUrl });
  const { services } = server;
  try {
    let started = performance.now();
    const data = await buildData(services);
    log(`built ${messageCount.toLocaleString()} topic messages among ${(messageCount + backgroundCount).toLocaleString()} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const port = await server.listen();
    const probeUser = data.people[1]!;
    const probeAuth = basicAuth(probeUser.delivery_email, probeUser.api_key);
    const ownerAuth = basicAuth(data.owner.delivery_email, data.owner.api_key);

    for (let i = 0; i < 200; i++) await call(port, 'GET', '/users/me', probeAuth);
    const idle = probeLoop(port, probeAuth, data.source.id);
    await new Promise((resolve) => setTimeout(resolve, probeSeconds * 1000));
    const unloaded = await idle.stop();

    const rowsBefore = await rowCount(services);
    const transactions = timeTransactions(services);
    const busy = probeLoop(port, probeAuth, data.source.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    started = performance.now();
    const answer = await call(port, 'PATCH', `/messages/${data.lastInTopic}`, ownerAuth, {
      stream_id: data.target.id,
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    const total = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const meanwhile = await busy.stop();
    if (answer.status !== 200) throw new Error(`the move answered ${answer.status}: ${JSON.stringify(answer.body)}`);

    const moved = await count(services, data.target.recipient_id!);
    const left = await count(services, data.source.recipient_id!);
    const rowsAfter = await rowCount(services);
    const longest = Math.max(...transactions);
    console.log(
      `Moving a ${messageCount.toLocaleString()}-message topic to another stream, change_all (${services.store.kind}, ` +
        `${subscriberCount} subscribers, half also on the destination; ${probes} probe clients)`,
    );
    console.log(`  total: ${ms(total)}; moved ${moved.toLocaleString()} (new thread holds the notice), left in the old topic: ${left} (its notice)`);
    console.log(`  user_message rows: ${rowsBefore.toLocaleString()} -> ${rowsAfter.toLocaleString()}`);
    console.log(`  transactions meanwhile: ${transactions.length}, longest ${ms(longest)}`);
    console.log(`  probes unloaded:  ${latencySummary(unloaded)}`);
    console.log(`  probes meanwhile: ${latencySummary(meanwhile)}`);
  } finally {
    await server.close();
  }
}

await main();
