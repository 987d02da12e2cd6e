// GET /users/me/{stream_id}/topics and the stream lookups by name and subscription status:
// reads that answer with the reference's content-access rule (lib/stream-topics.ts).
import type { DbOrTx, StreamRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { hasContentAccess, mergeTopicCasings, type TopicRow, topicHistoryScope } from '../lib/stream-topics.js';
import { getStreamById, getStreamByName, isSubscribed } from './streams.js';
import { accessActiveHumanById } from './users.js';

async function accessible(db: DbOrTx, viewer: UserRow, stream: StreamRow | undefined): Promise<StreamRow | undefined> {
  if (!stream) return undefined;
  const subscribed = await isSubscribed(db, viewer.id, stream.recipient_id!);
  return hasContentAccess(viewer, stream, subscribed) ? stream : undefined;
}

/** A stream whose content the viewer may read, by id; unknown and inaccessible ones answer alike. */
export async function accessStreamContentById(db: DbOrTx, viewer: UserRow, streamId: number): Promise<StreamRow> {
  const stream = await accessible(db, viewer, await getStreamById(db, viewer.realm_id, streamId));
  if (!stream) throw new ApiError('Invalid channel ID');
  return stream;
}

/** GET /get_stream_id: the name matches case-insensitively, surrounding spaces aside. */
export async function getStreamIdForUser(db: DbOrTx, viewer: UserRow, name: string): Promise<number> {
  const stream = await accessible(db, viewer, await getStreamByName(db, viewer.realm_id, name.trim()));
  if (!stream) throw new ApiError(`Invalid channel name '${name}'`);
  return stream.id;
}

/** GET /users/me/{stream_id}/topics: newest topic first. */
export async function getStreamTopics(db: DbOrTx, viewer: UserRow, streamId: number): Promise<TopicRow[]> {
  const stream = await accessStreamContentById(db, viewer, streamId);
  let query = db
    .selectFrom('message as m')
    .select(['m.subject as name', (eb) => eb.fn.max('m.id').as('max_id')])
    .where('m.realm_id', '=', viewer.realm_id)
    .where('m.recipient_id', '=', stream.recipient_id!)
    .groupBy('m.subject');
  // Protected history: only the topics of messages the viewer holds a copy of.
  if (topicHistoryScope(stream) === 'received') {
    query = query.innerJoin('user_message as um', 'um.message_id', 'm.id').where('um.user_id', '=', viewer.id);
  }
  const rows = await query.execute();
  return mergeTopicCasings(rows.map((row) => ({ name: row.name, max_id: Number(row.max_id) })));
}

/**
 * GET /users/{user_id}/subscriptions/{stream_id}: an active user of the realm (bots are not
 * looked up here, as on the reference), on a stream the viewer may read.
 */
export async function getSubscriptionStatus(db: DbOrTx, viewer: UserRow, userId: number, streamId: number): Promise<boolean> {
  const target = await accessActiveHumanById(db, viewer.realm_id, userId);
  const stream = await accessStreamContentById(db, viewer, streamId);
  return isSubscribed(db, target.id, stream.recipient_id!);
}
