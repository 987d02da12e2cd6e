// Builds the benchmark data set into an empty store: the organization through the real
// actions, then the message history in large batches, then the store's statistics.
import { sql } from 'kysely';
import { defaultConfig } from '../../src/config.js';
import type { Store } from '../../src/db/connect.js';
import { LocalBus } from '../../src/events/bus.js';
import { withQueues } from '../../src/events/registry.js';
import { listRealms } from '../../src/queries/realms.js';
import type { Services } from '../../src/services.js';
import { writeMessages, type MessageTotals } from './messages.js';
import { createOrganization, type Organization } from './organization.js';
import { makePlan, type Plan, type PlanOptions } from './plan.js';
import { step } from './progress.js';
import { Rng } from './random.js';

export interface BuildOptions extends PlanOptions {
  realmUrl: string;
  /** UNIX seconds: the newest message is sent just before this. */
  end: number;
}

export interface BuildResult {
  plan: Plan;
  org: Organization;
  totals: MessageTotals & { users: number; bots: number; streams: number; subscriptions: number; topics: number };
  seconds: { organization: number; messages: number; finish: number };
}

const TABLES = [
  'realm', 'user_profile', 'recipient', 'stream', 'default_stream', 'direct_message_group', 'subscription',
  'message', 'user_message', 'reaction', 'user_group', 'user_group_member',
];

async function tuneForLoading(store: Store, loading: boolean): Promise<void> {
  if (store.kind !== 'sqlite') return;
  // A failed build is rebuilt from scratch, so while loading there is no journal to keep.
  if (loading) {
    await sql`PRAGMA journal_mode = OFF`.execute(store.db);
    await sql`PRAGMA synchronous = OFF`.execute(store.db);
    await sql`PRAGMA cache_size = -1000000`.execute(store.db);
    await sql`PRAGMA temp_store = MEMORY`.execute(store.db);
  } else {
    await sql`PRAGMA journal_mode = WAL`.execute(store.db);
    await sql`PRAGMA synchronous = NORMAL`.execute(store.db);
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db);
  }
}

async function finish(store: Store, firstMessageOfStream: Map<number, number>): Promise<void> {
  const { db } = store;
  await db.transaction().execute(async (tx) => {
    for (const [streamId, messageId] of firstMessageOfStream) {
      await tx.updateTable('stream').set({ first_message_id: messageId }).where('id', '=', streamId).where('first_message_id', 'is', null).execute();
    }
  });
  if (store.kind === 'postgres') {
    // Ids were given explicitly; move the sequence past them so new messages do not collide.
    await sql`SELECT setval(pg_get_serial_sequence('message', 'id'), (SELECT COALESCE(MAX(id), 1) FROM message))`.execute(db);
    // VACUUM sets the visibility map (as autovacuum would on a running server), so the unread and
    // starred lookups are index-only scans from the first request rather than heap visits.
    await sql.raw(`VACUUM ANALYZE ${TABLES.join(', ')}`).execute(db);
  } else {
    // Every row, not the sample the store's connection takes at open (src/db/sqlite.ts).
    await sql`PRAGMA analysis_limit = 0`.execute(db);
    await sql`ANALYZE`.execute(db);
  }
}

export async function buildDataSet(store: Store, options: BuildOptions): Promise<BuildResult> {
  if ((await listRealms(store.db)).length > 0) throw new Error('the store already holds an organization; build into an empty one');
  const plan = makePlan(options);
  const start = options.end - 365 * 86_400;
  // The organization exists a little before its first message.
  const services: Services = withQueues({
    config: { ...defaultConfig, externalUrl: options.realmUrl },
    store,
    db: store.db,
    clock: { now: () => start - 7 * 86_400 },
    bus: new LocalBus(),
  });
  const t0 = Date.now();
  await tuneForLoading(store, true);
  const org = await step('organization', () => createOrganization(services, plan, options.realmUrl));
  const t1 = Date.now();
  const last = await store.db.selectFrom('message').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  const firstId = Number(last?.id ?? 0) + 1;
  const { totals, firstMessageOfStream } = await writeMessages(
    store.db, store.kind, plan, org, new Rng(options.seed).fork('messages'), options.end, firstId,
  );
  const t2 = Date.now();
  await step('first message ids, ANALYZE', () => finish(store, firstMessageOfStream));
  await tuneForLoading(store, false);
  const t3 = Date.now();

  const subscriptions = await store.db
    .selectFrom('subscription')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('active', '=', 1)
    .executeTakeFirstOrThrow();
  const topics = await store.db
    .selectFrom('message')
    .select(sql<number>`COUNT(DISTINCT recipient_id || ':' || lower(subject))`.as('n'))
    .where('subject', '<>', '')
    .executeTakeFirstOrThrow();
  return {
    plan,
    org,
    totals: {
      ...totals,
      users: plan.users.filter((u) => !u.isBot).length,
      bots: plan.users.filter((u) => u.isBot).length,
      streams: org.streams.length,
      subscriptions: Number(subscriptions.n),
      topics: Number(topics.n),
    },
    seconds: { organization: (t1 - t0) / 1000, messages: (t2 - t1) / 1000, finish: (t3 - t2) / 1000 },
  };
}
