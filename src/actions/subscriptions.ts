// Subscribing users to streams and taking them off again: the rows, colours, and the
// subscription add / remove / peer_add / peer_remove (and stream create) events.
import type { RealmRow, StreamRow, Tx, UserRow } from '../db/schema.js';
import { canSeeStream } from '../lib/permissions.js';
import { streamDict, subscriptionDict } from '../lib/stream-format.js';
import { subscriberIds, subscriberIdsByRecipient } from '../queries/streams.js';
import { activeUserRoles } from '../queries/users.js';
import type { SystemContext } from './context.js';

/** The palette stream colours are picked from, in order. */
export const STREAM_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

export interface SubscriptionPair {
  stream: StreamRow;
  user: UserRow;
}

export async function defaultStreamsOf(tx: Tx, realmId: number): Promise<StreamRow[]> {
  return tx
    .selectFrom('stream')
    .innerJoin('default_stream', 'default_stream.stream_id', 'stream.id')
    .selectAll('stream')
    .where('default_stream.realm_id', '=', realmId)
    .where('stream.deactivated', '=', 0)
    .orderBy('stream.id')
    .execute();
}

/** Who follows a stream's subscriber list: the active users who may see the stream. */
export async function peerAudience(tx: Tx, realm: RealmRow, stream: StreamRow): Promise<number[]> {
  const subscribed = new Set(await subscriberIds(tx, stream.recipient_id!));
  const users = await activeUserRoles(tx, realm.id);
  return users.filter((u) => canSeeStream(u, stream, subscribed.has(u.id))).map((u) => u.id);
}

/** The first palette colour the user does not use yet, else one chosen by the stream. */
function pickColor(used: Set<string>, recipientId: number): string {
  return STREAM_COLORS.find((c) => !used.has(c)) ?? STREAM_COLORS[recipientId % STREAM_COLORS.length]!;
}

function groupBy<K, V>(items: V[], key: (item: V) => K): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

/**
 * Subscribes every user to every stream. Returns the pairs newly subscribed and those that
 * already were. `colors` (by stream name) overrides the colour of new subscriptions.
 */
export async function addSubscriptions(
  ctx: SystemContext,
  realm: RealmRow,
  streams: StreamRow[],
  users: UserRow[],
  colors: ReadonlyMap<string, string> = new Map(),
): Promise<{ added: SubscriptionPair[]; already: SubscriptionPair[] }> {
  const added: SubscriptionPair[] = [];
  const already: SubscriptionPair[] = [];
  for (const user of users) {
    const existing = await ctx.tx
      .selectFrom('subscription')
      .select(['recipient_id', 'active', 'color'])
      .where('user_id', '=', user.id)
      .execute();
    const byRecipient = new Map(existing.map((s) => [s.recipient_id, s]));
    const used = new Set(existing.filter((s) => s.active).map((s) => s.color));
    for (const stream of streams) {
      const recipientId = stream.recipient_id!;
      const row = byRecipient.get(recipientId);
      if (row?.active) {
        already.push({ stream, user });
        continue;
      }
      if (row) {
        // Coming back keeps the colour and notification choices made before.
        await ctx.tx.updateTable('subscription').set({ active: 1 }).where('user_id', '=', user.id).where('recipient_id', '=', recipientId).execute();
        used.add(row.color);
      } else {
        const color = colors.get(stream.name) ?? pickColor(used, recipientId);
        used.add(color);
        await ctx.tx.insertInto('subscription').values({ user_id: user.id, recipient_id: recipientId, color }).execute();
      }
      added.push({ stream, user });
    }
  }
  if (added.length > 0) await announceAdded(ctx, realm, added);
  return { added, already };
}

/** Subscribes every user to every stream; returns the pairs that were newly subscribed. */
export async function bulkAddSubscriptions(
  ctx: SystemContext,
  realm: RealmRow,
  streams: StreamRow[],
  users: UserRow[],
): Promise<SubscriptionPair[]> {
  return (await addSubscriptions(ctx, realm, streams, users)).added;
}

async function announceAdded(ctx: SystemContext, realm: RealmRow, added: SubscriptionPair[]): Promise<void> {
  const byStream = groupBy(added, (a) => a.stream.id);
  const streams = new Map(added.map((a) => [a.stream.id, a.stream]));

  // Users who could not see a stream before (private streams, guests on public ones) learn it exists.
  for (const [streamId, pairs] of byStream) {
    const stream = streams.get(streamId)!;
    const newcomers = pairs.filter((p) => !canSeeStream(p.user, stream, false)).map((p) => p.user.id);
    ctx.events.send({ type: 'stream', op: 'create', streams: [streamDict(stream)] }, newcomers);
  }

  const recipientIds = [...streams.values()].map((s) => s.recipient_id!);
  const subscribers = await subscriberIdsByRecipient(ctx.tx, recipientIds);
  for (const [userId, pairs] of groupBy(added, (a) => a.user.id)) {
    const rows = await ctx.tx
      .selectFrom('subscription')
      .selectAll()
      .where('user_id', '=', userId)
      .where('recipient_id', 'in', pairs.map((p) => p.stream.recipient_id!))
      .execute();
    const byRecipient = new Map(rows.map((r) => [r.recipient_id, r]));
    const subscriptions = pairs.map(({ stream }) =>
      subscriptionDict(stream, byRecipient.get(stream.recipient_id!)!, subscribers.get(stream.recipient_id!) ?? []),
    );
    ctx.events.send({ type: 'subscription', op: 'add', subscriptions }, [userId]);
  }

  for (const [streamId, pairs] of byStream) {
    const newIds = new Set(pairs.map((p) => p.user.id));
    const audience = (await peerAudience(ctx.tx, realm, streams.get(streamId)!)).filter((id) => !newIds.has(id));
    ctx.events.send(
      { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [...newIds].sort((a, b) => a - b) },
      audience,
    );
  }
}

/**
 * Ends every user's subscription to every stream. Returns the pairs removed and those that
 * were not subscribed in the first place.
 */
export async function bulkRemoveSubscriptions(
  ctx: SystemContext,
  realm: RealmRow,
  users: UserRow[],
  streams: StreamRow[],
): Promise<{ removed: SubscriptionPair[]; notSubscribed: SubscriptionPair[] }> {
  const removed: SubscriptionPair[] = [];
  const notSubscribed: SubscriptionPair[] = [];
  for (const user of users) {
    for (const stream of streams) {
      const result = await ctx.tx
        .updateTable('subscription')
        .set({ active: 0 })
        .where('user_id', '=', user.id)
        .where('recipient_id', '=', stream.recipient_id!)
        .where('active', '=', 1)
        .executeTakeFirst();
      (Number(result.numUpdatedRows) > 0 ? removed : notSubscribed).push({ stream, user });
    }
  }

  for (const [userId, pairs] of groupBy(removed, (r) => r.user.id)) {
    const subscriptions = pairs.map(({ stream }) => ({ name: stream.name, stream_id: stream.id }));
    ctx.events.send({ type: 'subscription', op: 'remove', subscriptions }, [userId]);
  }
  for (const [streamId, pairs] of groupBy(removed, (r) => r.stream.id)) {
    const goneIds = new Set(pairs.map((p) => p.user.id));
    const audience = (await peerAudience(ctx.tx, realm, pairs[0]!.stream)).filter((id) => !goneIds.has(id));
    ctx.events.send(
      { type: 'subscription', op: 'peer_remove', stream_ids: [streamId], user_ids: [...goneIds].sort((a, b) => a - b) },
      audience,
    );
  }
  return { removed, notSubscribed };
}
