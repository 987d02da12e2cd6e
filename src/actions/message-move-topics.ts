// Topic preferences (mute, unmute, follow) follow a topic that moved whole: each person's
// preference moves to the new place, merged with one already there when that topic existed.
import type { UserTopicRow } from '../db/schema.js';
import { readsAfterMove } from '../lib/move-access.js';
import { mutedTopicsOf } from '../queries/user-topics.js';
import type { ActionContext } from './context.js';
import type { MovePlan } from './message-move.js';

/** Stored policies: 1 muted, 2 unmuted, 3 followed; 0 means no row (inherit). */
const INHERIT = 0;

/** The more visible of two preferences wins: followed, then unmuted, then none, then muted. */
function mergedPolicy(a: number, b: number): number {
  const rank = [1, 0, 2, 3];
  return rank.indexOf(a) >= rank.indexOf(b) ? a : b;
}

async function rowsFor(ctx: ActionContext, streamId: number, topic: string): Promise<UserTopicRow[]> {
  const rows = await ctx.tx.selectFrom('user_topic').selectAll().where('stream_id', '=', streamId).execute();
  const key = topic.toLowerCase();
  return rows.filter((r) => r.topic_name.toLowerCase() === key);
}

async function setPolicy(ctx: ActionContext, userId: number, stream: { id: number; recipient_id: number | null }, topic: string, existing: UserTopicRow | undefined, policy: number) {
  if (existing) {
    if (policy === INHERIT) await ctx.tx.deleteFrom('user_topic').where('id', '=', existing.id).execute();
    else await ctx.tx.updateTable('user_topic').set({ visibility_policy: policy, last_updated: ctx.now }).where('id', '=', existing.id).execute();
  } else if (policy !== INHERIT) {
    await ctx.tx
      .insertInto('user_topic')
      .values({ user_id: userId, stream_id: stream.id, recipient_id: stream.recipient_id!, topic_name: topic, last_updated: ctx.now, visibility_policy: policy })
      .execute();
  }
  ctx.events.send({ type: 'user_topic', stream_id: stream.id, topic_name: topic, last_updated: ctx.now, visibility_policy: policy }, [userId]);
}

/** Of these people, those who cannot read the destination of a move to another stream. */
async function unableToRead(ctx: ActionContext, plan: MovePlan, userIds: readonly number[]): Promise<Set<number>> {
  if (plan.origStream.id === plan.targetStream.id || userIds.length === 0) return new Set();
  // A deactivated account's subscription still counts, as it does for rows.
  const people = await ctx.tx
    .selectFrom('user_profile')
    .leftJoin('subscription', (join) =>
      join
        .onRef('subscription.user_id', '=', 'user_profile.id')
        .on('subscription.recipient_id', '=', plan.targetStream.recipient_id!)
        .on('subscription.active', '=', 1),
    )
    .select(['user_profile.id', 'user_profile.role', 'subscription.id as subscription_id'])
    .where('user_profile.id', 'in', userIds)
    .execute();
  const out = people.filter((u) => !readsAfterMove(plan.targetStream, { role: u.role, onTarget: u.subscription_id !== null }));
  return new Set(out.map((u) => u.id));
}

/**
 * Moves preferences from the old topic to the new one. People who cannot read the messages in
 * their new place lose their preference instead of gaining one in a stream they cannot read.
 */
export async function moveTopicPreferences(ctx: ActionContext, plan: MovePlan, targetHadMessages: boolean): Promise<void> {
  const oldRows = new Map((await rowsFor(ctx, plan.origStream.id, plan.origTopic)).map((r) => [r.user_id, r]));
  const newRows = new Map((await rowsFor(ctx, plan.targetStream.id, plan.targetTopic)).map((r) => [r.user_id, r]));
  if (oldRows.size === 0 && newRows.size === 0) return;
  // A case-only rename within one stream keeps the very same rows: rename them.
  const sameRows = plan.origStream.id === plan.targetStream.id && plan.origTopic.toLowerCase() === plan.targetTopic.toLowerCase();
  const people = new Set([...oldRows.keys(), ...newRows.keys()]);
  const losing = await unableToRead(ctx, plan, [...oldRows.keys()]);
  for (const userId of people) {
    const row = oldRows.get(userId);
    if (sameRows) {
      if (!row) continue;
      await ctx.tx.updateTable('user_topic').set({ topic_name: plan.targetTopic, last_updated: ctx.now }).where('id', '=', row.id).execute();
      const moved = { stream_id: plan.targetStream.id, topic_name: plan.targetTopic, last_updated: ctx.now, visibility_policy: row.visibility_policy };
      ctx.events.send({ type: 'user_topic', ...moved }, [userId]);
      continue;
    }
    if (row) await setPolicy(ctx, userId, plan.origStream, plan.origTopic, row, INHERIT);
    if (losing.has(userId) && row) continue;
    const there = newRows.get(userId);
    const previous = row?.visibility_policy ?? INHERIT;
    const current = there?.visibility_policy ?? INHERIT;
    const wanted = targetHadMessages ? mergedPolicy(previous, current) : previous;
    if (wanted !== current) await setPolicy(ctx, userId, plan.targetStream, plan.targetTopic, there, wanted);
  }
  // The legacy list, for clients that do not follow user_topic events (the queues pick one form).
  for (const userId of people) {
    ctx.events.send({ type: 'muted_topics', muted_topics: await mutedTopicsOf(ctx.tx, userId) }, [userId]);
  }
}
