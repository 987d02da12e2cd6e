// Per-topic visibility (muted, unmuted, followed) through POST /user_topics and the legacy
// muted_topics endpoint. Topics need not have messages, and match case-insensitively.
import type { StreamRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { VisibilityPolicy } from '../lib/narrow/types.js';
import { accessStreamById } from '../queries/stream-access.js';
import { getStreamById, getStreamByName } from '../queries/streams.js';
import { mutedTopicsOf, userTopicRow } from '../queries/user-topics.js';
import type { ActionContext } from './context.js';

export const VISIBILITY_POLICIES: readonly number[] = Object.values(VisibilityPolicy);

/** Sets the user's policy for the topic (INHERIT removes it); a request that changes nothing sends nothing. */
export async function doSetUserTopicVisibility(ctx: ActionContext, stream: StreamRow, topic: string, policy: number): Promise<void> {
  const { tx, actor } = ctx;
  const row = await userTopicRow(tx, actor.id, stream.id, topic);
  if (policy === VisibilityPolicy.INHERIT) {
    if (!row) return;
    await tx.deleteFrom('user_topic').where('id', '=', row.id).execute();
  } else if (row) {
    if (row.visibility_policy === policy) return;
    await tx.updateTable('user_topic').set({ visibility_policy: policy, last_updated: ctx.now }).where('id', '=', row.id).execute();
  } else {
    await tx
      .insertInto('user_topic')
      .values({
        user_id: actor.id,
        stream_id: stream.id,
        recipient_id: stream.recipient_id!,
        topic_name: topic,
        last_updated: ctx.now,
        visibility_policy: policy,
      })
      .execute();
  }
  // The legacy list first, for clients that do not know user_topic events.
  ctx.events.send({ type: 'muted_topics', muted_topics: await mutedTopicsOf(tx, actor.id) }, [actor.id]);
  const event = { type: 'user_topic', stream_id: stream.id, topic_name: row?.topic_name ?? topic, last_updated: ctx.now, visibility_policy: policy };
  ctx.events.send(event, [actor.id]);
}

/** Databases cannot store NUL in text; no topic has one. */
function checkTopicText(topic: string): void {
  const at = [...topic].indexOf('\u0000');
  if (at >= 0) throw new ApiError(`Invalid character in topic, at position ${at + 1}!`);
}

/** POST /user_topics. Removing a policy needs only that the stream exists; setting one needs access to it. */
export async function doUpdateUserTopic(ctx: ActionContext, streamId: number, topic: string, policy: number): Promise<void> {
  if (!VISIBILITY_POLICIES.includes(policy)) throw new ApiError('Invalid visibility_policy');
  checkTopicText(topic);
  let stream: StreamRow | undefined;
  if (policy === VisibilityPolicy.INHERIT) {
    stream = await getStreamById(ctx.tx, ctx.realm.id, streamId);
    if (!stream) throw new ApiError('Invalid channel ID');
  } else {
    stream = (await accessStreamById(ctx.tx, ctx.actor, streamId)).stream;
  }
  await doSetUserTopicVisibility(ctx, stream, topic, policy);
}

export interface MutedTopicRequest {
  streamId?: number;
  streamName?: string;
  topic: string;
  op: 'add' | 'remove';
}

/** PATCH /users/me/subscriptions/muted_topics: mute or unmute, naming the stream by id or by name. */
export async function doUpdateMutedTopic(ctx: ActionContext, request: MutedTopicRequest): Promise<void> {
  const { streamId, streamName, topic, op } = request;
  if (streamId === undefined && streamName === undefined) throw new ApiError("Missing 'stream_id' argument");
  if (streamId !== undefined && streamName !== undefined) {
    throw new ApiError('Unsupported parameter combination: stream_id, stream', { data: { parameters: 'stream_id, stream' } });
  }
  checkTopicText(topic);
  let stream: StreamRow | undefined;
  if (op === 'add') {
    if (streamName !== undefined) {
      stream = await getStreamByName(ctx.tx, ctx.realm.id, streamName);
      if (!stream) throw new ApiError(`Invalid channel name '${streamName}'`);
      stream = (await accessStreamById(ctx.tx, ctx.actor, stream.id)).stream;
    } else {
      stream = (await accessStreamById(ctx.tx, ctx.actor, streamId!)).stream;
    }
    return doSetUserTopicVisibility(ctx, stream, topic, VisibilityPolicy.MUTED);
  }
  // Unmuting works wherever the stream still exists, even without access to it now.
  stream =
    streamName !== undefined ? await getStreamByName(ctx.tx, ctx.realm.id, streamName) : await getStreamById(ctx.tx, ctx.realm.id, streamId!);
  if (!stream) throw new ApiError('Topic is not muted');
  return doSetUserTopicVisibility(ctx, stream, topic, VisibilityPolicy.INHERIT);
}
