// Finds in a built store what the load runner needs: a sender and a 50-subscriber stream,
// a busy topic the sender can read, and the size of the data set.
import { sql } from 'kysely';
import type { Store } from '../../src/db/connect.js';
import { Role } from '../../src/lib/roles.js';

export interface BenchTargets {
  realmUrl: string;
  user: { id: number; email: string; apiKey: string; subscriptions: number; userMessages: number };
  sendStream: { id: number; name: string; subscribers: number; firstMessageId: number | null };
  topic: { streamId: number; streamName: string; topic: string; messages: number };
  searchWord: string;
  searchMatches: number;
  dataSet: { messages: number; userMessages: number; users: number; streams: number; maxMessageId: number };
}

const count = (n: unknown) => Number(n ?? 0);

export async function discoverTargets(store: Store, searchWord: string): Promise<BenchTargets> {
  const { db } = store;
  const realm = await db.selectFrom('realm').select(['id', 'url']).orderBy('id').executeTakeFirst();
  if (!realm) throw new Error('the store holds no organization: build one with npm run bench:data');

  // The public stream whose subscriber count is closest to 50.
  const streams = await db
    .selectFrom('stream')
    .innerJoin('subscription', 'subscription.recipient_id', 'stream.recipient_id')
    .select(['stream.id', 'stream.name', 'stream.recipient_id', 'stream.first_message_id'])
    .select((eb) => eb.fn.countAll().as('subscribers'))
    .where('stream.realm_id', '=', realm.id)
    .where('stream.deactivated', '=', 0)
    .where('stream.invite_only', '=', 0)
    .where('subscription.active', '=', 1)
    .groupBy(['stream.id', 'stream.name', 'stream.recipient_id', 'stream.first_message_id'])
    .execute();
  if (streams.length === 0) throw new Error('the organization has no public stream with subscribers');
  const sendStream = streams.reduce((best, s) =>
    Math.abs(count(s.subscribers) - 50) < Math.abs(count(best.subscribers) - 50) ? s : best,
  );

  // Its member (not a guest, not a bot) with the most subscriptions: a heavy reader.
  const user = await db
    .selectFrom('user_profile')
    .innerJoin('subscription as mine', 'mine.user_id', 'user_profile.id')
    .select(['user_profile.id', 'user_profile.delivery_email', 'user_profile.api_key'])
    .select((eb) => eb.fn.countAll().as('subscriptions'))
    .where('user_profile.realm_id', '=', realm.id)
    .where('user_profile.is_bot', '=', 0)
    .where('user_profile.is_active', '=', 1)
    .where('user_profile.role', '=', Role.MEMBER)
    .where('mine.active', '=', 1)
    .where('user_profile.id', 'in', (eb) =>
      eb.selectFrom('subscription').select('user_id').where('recipient_id', '=', sendStream.recipient_id!).where('active', '=', 1),
    )
    .groupBy(['user_profile.id', 'user_profile.delivery_email', 'user_profile.api_key'])
    .orderBy('subscriptions', 'desc')
    .orderBy('user_profile.id')
    .executeTakeFirst();
  if (!user) throw new Error(`no member is subscribed to #${sendStream.name}`);

  // The busiest topic of the streams that user is subscribed to.
  const topic = await db
    .selectFrom('message')
    .innerJoin('stream', 'stream.recipient_id', 'message.recipient_id')
    .innerJoin('subscription', 'subscription.recipient_id', 'message.recipient_id')
    .select(['stream.id as stream_id', 'stream.name as stream_name'])
    .select((eb) => [eb.fn.min('message.subject').as('subject'), eb.fn.countAll().as('messages')])
    .where('subscription.user_id', '=', user.id)
    .where('subscription.active', '=', 1)
    .groupBy(['stream.id', 'stream.name', sql`lower(message.subject)`])
    .orderBy('messages', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!topic) throw new Error(`${user.delivery_email} has no stream messages to read`);

  const searchMatches =
    store.kind === 'sqlite'
      ? await sql<{ n: number }>`SELECT COUNT(*) AS n FROM message_fts WHERE message_fts MATCH ${searchWord}`.execute(db)
      : await sql<{ n: number }>`SELECT COUNT(*) AS n FROM message WHERE search_tsv @@ plainto_tsquery('english', ${searchWord})`.execute(db);
  const totals = await sql<{ messages: number; max_id: number | null; user_messages: number; mine: number; users: number; streams: number }>`
    SELECT (SELECT COUNT(*) FROM message) AS messages, (SELECT MAX(id) FROM message) AS max_id,
      (SELECT COUNT(*) FROM user_message) AS user_messages,
      (SELECT COUNT(*) FROM user_message WHERE user_id = ${user.id}) AS mine,
      (SELECT COUNT(*) FROM user_profile WHERE is_bot = 0) AS users,
      (SELECT COUNT(*) FROM stream) AS streams`.execute(db);
  const t = totals.rows[0]!;
  return {
    realmUrl: realm.url,
    user: {
      id: user.id,
      email: user.delivery_email,
      apiKey: user.api_key,
      subscriptions: count(user.subscriptions),
      userMessages: count(t.mine),
    },
    sendStream: {
      id: sendStream.id,
      name: sendStream.name,
      subscribers: count(sendStream.subscribers),
      firstMessageId: sendStream.first_message_id,
    },
    topic: { streamId: topic.stream_id, streamName: topic.stream_name, topic: topic.subject, messages: count(topic.messages) },
    searchWord,
    searchMatches: count(searchMatches.rows[0]?.n),
    dataSet: {
      messages: count(t.messages),
      userMessages: count(t.user_messages),
      users: count(t.users),
      streams: count(t.streams),
      maxMessageId: count(t.max_id),
    },
  };
}

/** The form body of the send benchmark's n-th message: to the 50-subscriber stream, over ten topics, a different text each time. */
export function sendBody(targets: BenchTargets, n: number): string {
  return new URLSearchParams({ type: 'stream', to: String(targets.sendStream.id), topic: `load test ${n % 10}`, content: `Load test message ${n} with a few words in it.` }).toString();
}

/** Removes what the send benchmark added, so that runs on the same data set stay comparable. */
export async function removeSentMessages(store: Store, targets: BenchTargets): Promise<number> {
  const after = targets.dataSet.maxMessageId;
  return store.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('user_message').where('message_id', '>', after).execute();
    await tx.deleteFrom('reaction').where('message_id', '>', after).execute();
    const result = await tx.deleteFrom('message').where('id', '>', after).executeTakeFirst();
    if (targets.sendStream.firstMessageId === null) {
      await tx.updateTable('stream').set({ first_message_id: null }).where('id', '=', targets.sendStream.id).execute();
    }
    return Number(result.numDeletedRows);
  });
}
