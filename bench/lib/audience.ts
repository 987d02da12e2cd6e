// Who the event benchmarks use: the stream with the most subscribers and its active human
// subscribers, with their API keys; and removing what they sent afterwards.
import type { Store } from '../../src/db/connect.js';
import { basicAuth } from './http-client.js';

export interface Person {
  email: string;
  apiKey: string;
  /** The Authorization header's value. */
  auth: string;
}

/** The biggest stream and its people, in id order (at most `limit` of them). */
export async function pickAudience(store: Store, limit?: number): Promise<{ stream: { id: number; name: string }; people: Person[] }> {
  const stream = await store.db
    .selectFrom('stream')
    .innerJoin('subscription', 'subscription.recipient_id', 'stream.recipient_id')
    .select(['stream.id', 'stream.name', (eb) => eb.fn.countAll<number>().as('n')])
    .where('subscription.active', '=', 1)
    .groupBy(['stream.id', 'stream.name'])
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  let query = store.db
    .selectFrom('user_profile')
    .innerJoin('subscription', 'subscription.user_id', 'user_profile.id')
    .innerJoin('stream', 'stream.recipient_id', 'subscription.recipient_id')
    .select(['user_profile.delivery_email as email', 'user_profile.api_key as apiKey'])
    .where('stream.id', '=', stream.id)
    .where('subscription.active', '=', 1)
    .where('user_profile.is_active', '=', 1)
    .where('user_profile.is_bot', '=', 0)
    .orderBy('user_profile.id');
  if (limit !== undefined) query = query.limit(limit);
  const rows = await query.execute();
  return { stream: { id: stream.id, name: stream.name }, people: rows.map((r) => ({ ...r, auth: basicAuth(r.email, r.apiKey) })) };
}

/** Deletes the messages of a benchmark's own topic, so runs on the same data set stay comparable; returns how many. */
export async function removeTopicMessages(store: Store, topic: string): Promise<number> {
  const ids = (await store.db.selectFrom('message').select('id').where('subject', '=', topic).execute()).map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await store.db.deleteFrom('user_message').where('message_id', 'in', chunk).execute();
    await store.db.deleteFrom('message').where('id', 'in', chunk).execute();
  }
  return ids.length;
}
