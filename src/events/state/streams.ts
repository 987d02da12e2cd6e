// The `subscription` and `stream` parts of the POST /register state.
import type { DbOrTx, StreamRow, SubscriptionRow, UserRow } from '../../db/schema.js';
import { canSeeStream } from '../../lib/permissions.js';
import { isAdmin } from '../../lib/roles.js';
import { byStreamName, streamDict, subscriptionDict } from '../../lib/stream-format.js';
import { realmActiveStreams } from '../../queries/kept-lists.js';
import { subscriberIdsByRecipient } from '../../queries/streams.js';

/** Whether the user may read a stream's subscriber list while not subscribed to it. */
function canSeeSubscribersUnsubscribed(user: Pick<UserRow, 'role'>, stream: { invite_only: number | boolean }): boolean {
  return !stream.invite_only || isAdmin(user);
}

/** The realm's active streams and every subscription row of the user: what both parts read. */
export interface UserStreams {
  streams: readonly StreamRow[];
  rows: SubscriptionRow[];
}

export async function loadUserStreams(db: DbOrTx, user: UserRow): Promise<UserStreams> {
  const [streams, rows] = await Promise.all([
    realmActiveStreams(db, user.realm_id),
    db.selectFrom('subscription').selectAll().where('user_id', '=', user.id).execute(),
  ]);
  return { streams, rows };
}

/** subscriptions, unsubscribed and never_subscribed, each by stream name. */
export async function subscriptionState(db: DbOrTx, user: UserRow, includeSubscribers: boolean, known: UserStreams) {
  const { streams, rows } = known;
  const subByRecipient = new Map(rows.map((row) => [row.recipient_id, row]));
  const subscribers = includeSubscribers ? await subscriberIdsByRecipient(db, streams.map((s) => s.recipient_id!)) : null;
  const subscribersOf = (recipientId: number, visible: boolean) =>
    subscribers === null ? undefined : visible ? (subscribers.get(recipientId) ?? []) : [];

  const subscriptions = [];
  const unsubscribed = [];
  const neverSubscribed = [];
  for (const stream of [...streams].sort(byStreamName)) {
    const sub = subByRecipient.get(stream.recipient_id!);
    if (sub?.active) {
      subscriptions.push(subscriptionDict(stream, sub, subscribersOf(stream.recipient_id!, true)));
    } else if (sub) {
      unsubscribed.push(subscriptionDict(stream, sub, subscribersOf(stream.recipient_id!, canSeeSubscribersUnsubscribed(user, stream))));
    } else if (canSeeStream(user, stream, false)) {
      const dict: Record<string, unknown> = { ...streamDict(stream) };
      const list = subscribersOf(stream.recipient_id!, canSeeSubscribersUnsubscribed(user, stream));
      if (list) dict.subscribers = list;
      neverSubscribed.push(dict);
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/** streams: every stream the user may know exists, by name. */
export function streamState(user: UserRow, known: UserStreams) {
  const { streams, rows } = known;
  const subscribed = new Set(rows.filter((row) => row.active).map((row) => row.recipient_id));
  return {
    streams: streams
      .filter((stream) => canSeeStream(user, stream, subscribed.has(stream.recipient_id!)))
      .sort(byStreamName)
      .map(streamDict),
  };
}
