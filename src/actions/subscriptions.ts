// Subscribing users to streams: rows, colours, and the subscription add / peer_add events.
import type { RealmRow, StreamRow, Tx, UserRow } from '../db/schema.js';
import { activeUserIds } from '../queries/users.js';
import { subscriberIds } from '../queries/streams.js';
import type { SystemContext } from './context.js';

/** The palette stream colours are picked from, in order. */
export const STREAM_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

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

/** Who is told about changes to a stream's subscribers: everyone for public streams, subscribers otherwise. */
export async function peerAudience(tx: Tx, realm: RealmRow, stream: StreamRow): Promise<number[]> {
  if (!stream.invite_only) return activeUserIds(tx, realm.id);
  return subscriberIds(tx, stream.recipient_id!);
}

/**
 * Subscribes every user to every stream (already-active subscriptions are left alone).
 * Returns the pairs that were newly subscribed.
 */
export async function bulkAddSubscriptions(
  ctx: SystemContext,
  realm: RealmRow,
  streams: StreamRow[],
  users: UserRow[],
): Promise<Array<{ stream: StreamRow; user: UserRow }>> {
  const added: Array<{ stream: StreamRow; user: UserRow }> = [];
  for (const user of users) {
    const existing = await ctx.tx
      .selectFrom('subscription')
      .select(['recipient_id', 'active'])
      .where('user_id', '=', user.id)
      .execute();
    const byRecipient = new Map(existing.map((s) => [s.recipient_id, s.active]));
    let colorIndex = existing.length;
    for (const stream of streams) {
      const state = byRecipient.get(stream.recipient_id!);
      if (state === 1) continue;
      if (state === 0) {
        await ctx.tx
          .updateTable('subscription')
          .set({ active: 1 })
          .where('user_id', '=', user.id)
          .where('recipient_id', '=', stream.recipient_id!)
          .execute();
      } else {
        await ctx.tx
          .insertInto('subscription')
          .values({
            user_id: user.id,
            recipient_id: stream.recipient_id!,
            color: STREAM_COLORS[colorIndex++ % STREAM_COLORS.length]!,
          })
          .execute();
      }
      added.push({ stream, user });
    }
  }
  for (const stream of new Set(added.map((a) => a.stream))) {
    const newUsers = added.filter((a) => a.stream === stream).map((a) => a.user.id);
    ctx.events.send(
      { type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: newUsers },
      await peerAudience(ctx.tx, realm, stream),
    );
  }
  for (const user of new Set(added.map((a) => a.user))) {
    const streamIds = added.filter((a) => a.user === user).map((a) => a.stream.id);
    ctx.events.send({ type: 'subscription', op: 'add', stream_ids: streamIds }, [user.id]);
  }
  return added;
}
