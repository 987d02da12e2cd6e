// Read-side access to streams: what a user may list and look up, as API dictionaries.
// The rules themselves live in lib/permissions.ts; these load the rows and apply them.
import type { DbOrTx, StreamRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { canSeeStream } from '../lib/permissions.js';
import { isAdmin, isGuest } from '../lib/roles.js';
import { byStreamName, type StreamDict, streamDict, subscriptionDict } from '../lib/stream-format.js';
import {
  activeSubscriptionsOf,
  defaultStreamIds,
  getStreamById,
  isSubscribed,
  subscribedStreamIds,
  subscriberIds,
  subscriberIdsByRecipient,
} from './streams.js';
import { realmActiveStreams } from './kept-lists.js';

export interface StreamListOptions {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  includeAllActive: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
}

/** GET /streams: the union of the requested sources, by name. */
export async function getStreamsForUser(db: DbOrTx, viewer: UserRow, options: StreamListOptions): Promise<StreamDict[]> {
  if (options.includeAllActive && !isAdmin(viewer)) throw new ApiError('User not authorized for this query');
  const all = await realmActiveStreams(db, viewer.realm_id);
  let selected: readonly StreamRow[];
  if (options.includeAllActive) {
    selected = all;
  } else {
    const subscribed = options.includeSubscribed ? await subscribedStreamIds(db, viewer.id) : new Set<number>();
    const ownerSubscribed =
      options.includeOwnerSubscribed && viewer.is_bot && viewer.bot_owner_id !== null
        ? await subscribedStreamIds(db, viewer.bot_owner_id)
        : new Set<number>();
    // Guests cannot browse public streams.
    const includePublic = options.includePublic && !isGuest(viewer);
    const webPublic = (s: StreamRow) => Boolean(s.is_web_public && !s.invite_only && s.history_public_to_subscribers);
    selected = all.filter(
      (s) =>
        subscribed.has(s.id) ||
        ownerSubscribed.has(s.id) ||
        (includePublic && !s.invite_only) ||
        (options.includeWebPublic && webPublic(s)),
    );
  }
  const dicts = selected.map(streamDict).sort(byStreamName);
  if (options.includeDefault) {
    const defaults = await defaultStreamIds(db, viewer.realm_id);
    for (const dict of dicts) dict.is_default = defaults.has(dict.stream_id);
  }
  return dicts;
}

/** A stream the viewer may know about, by id; unknown and invisible streams look the same. */
export async function accessStreamById(db: DbOrTx, viewer: UserRow, streamId: number): Promise<{ stream: StreamRow; subscribed: boolean }> {
  const stream = await getStreamById(db, viewer.realm_id, streamId);
  if (!stream) throw new ApiError('Invalid channel ID');
  const subscribed = await isSubscribed(db, viewer.id, stream.recipient_id!);
  if (!canSeeStream(viewer, stream, subscribed)) throw new ApiError('Invalid channel ID');
  return { stream, subscribed };
}

/** GET /streams/{stream_id}. */
export async function getStreamForUser(db: DbOrTx, viewer: UserRow, streamId: number): Promise<StreamDict> {
  return streamDict((await accessStreamById(db, viewer, streamId)).stream);
}

/** GET /streams/{stream_id}/members: active subscribers, by id. */
export async function getSubscribersForUser(db: DbOrTx, viewer: UserRow, streamId: number): Promise<number[]> {
  const { stream } = await accessStreamById(db, viewer, streamId);
  return (await subscriberIds(db, stream.recipient_id!)).sort((a, b) => a - b);
}

/** GET /users/me/subscriptions: the user's subscriptions, by stream name. */
export async function getSubscriptionsForUser(db: DbOrTx, user: UserRow, includeSubscribers: boolean) {
  const rows = (await activeSubscriptionsOf(db, user.id)).sort((a, b) => byStreamName(a.stream, b.stream));
  const subscribers = includeSubscribers ? await subscriberIdsByRecipient(db, rows.map((r) => r.stream.recipient_id!)) : null;
  return rows.map(({ stream, sub }) => subscriptionDict(stream, sub, subscribers?.get(stream.recipient_id!) ?? undefined));
}
