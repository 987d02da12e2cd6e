// What follows a move: topic preferences follow a topic that moved whole, and the notification
// bot leaves notices in the old and new threads (or says the topic was resolved).
import type { StreamRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { resolveChange } from '../lib/edit-rules.js';
import { type MoveSummary, newThreadNotice, oldThreadNotice, resolveNotice } from '../lib/move-notices.js';
import { subscriberIds } from '../queries/streams.js';
import { getUserById } from '../queries/users.js';
import type { ActionContext } from './context.js';
import { doDeleteMessages } from './message-delete.js';
import { doSendMessage } from './message-send.js';
import { inTopic, type MovePlan, seesWholeHistory, streamChanged, topicChanged, visibleTopicMessages } from './message-move.js';
import { moveTopicPreferences } from './message-move-topics.js';

/** An accidental resolve undone within this long removes the first notice instead of adding another. */
const RESOLVE_UNDO_GRACE_SECONDS = 60;

export interface BeforeMove {
  /** The destination topic had messages (any) before the move. */
  targetHadMessages: boolean;
  /** The destination topic had messages the actor could see before the move. */
  targetHadVisibleMessages: boolean;
}

export interface MoveOptions {
  notifyOld: boolean;
  notifyNew: boolean;
  contentEdited: boolean;
}

async function prepare(ctx: ActionContext, plan: MovePlan): Promise<BeforeMove> {
  const any = await ctx.tx
    .selectFrom('message')
    .select('message.id')
    .where(inTopic(plan.targetStream.recipient_id!, plan.targetTopic))
    .limit(1)
    .execute();
  if (any.length === 0) return { targetHadMessages: false, targetHadVisibleMessages: false };
  // Someone who reads the whole history sees what exists; others see only what they received.
  const wholeHistory = await seesWholeHistory(ctx, plan.targetStream);
  if (wholeHistory) return { targetHadMessages: true, targetHadVisibleMessages: true };
  const visible = await visibleTopicMessages(ctx, plan.targetStream, plan.targetTopic, false);
  return { targetHadMessages: true, targetHadVisibleMessages: visible.length > 0 };
}

/** Whether the actor moved every message of the old topic they can see. */
async function movedWholeTopic(ctx: ActionContext, plan: MovePlan): Promise<boolean> {
  if (plan.propagateMode === 'change_all') return true;
  const left = await visibleTopicMessages(ctx, plan.origStream, plan.origTopic, await seesWholeHistory(ctx, plan.origStream));
  return left.length === 0;
}

async function finish(
  ctx: ActionContext,
  plan: MovePlan,
  ids: readonly number[],
  before: BeforeMove,
  options: MoveOptions,
): Promise<void> {
  const wholeTopic = await movedWholeTopic(ctx, plan);
  if (wholeTopic) await moveTopicPreferences(ctx, plan, before.targetHadMessages);
  const bot = ctx.realm.notification_bot_id === null ? undefined : await getUserById(ctx.tx, ctx.realm.id, ctx.realm.notification_bot_id);
  if (!bot) return;
  const resolve = topicChanged(plan) && !streamChanged(plan) ? resolveChange(plan.origTopic, plan.targetTopic) : null;
  if (resolve && !options.contentEdited) await noteResolve(ctx, bot, plan, resolve);
  const summary: MoveSummary = {
    mover: ctx.actor,
    from: { streamId: plan.origStream.id, streamName: plan.origStream.name, topic: plan.origTopic },
    to: { streamId: plan.targetStream.id, streamName: plan.targetStream.name, topic: plan.targetTopic },
    count: ids.length,
    wholeTopic,
    newTopic: !before.targetHadVisibleMessages,
    messageId: plan.message.id,
    realmUrl: ctx.realm.url,
  };
  if (options.notifyNew && (streamChanged(plan) || resolve === null)) {
    await postNotice(ctx, bot, plan.targetStream, plan.targetTopic, newThreadNotice(summary));
  }
  if (options.notifyOld) await postNotice(ctx, bot, plan.origStream, plan.origTopic, oldThreadNotice(summary));
}

/** Posts as the notification bot to everyone subscribed. */
async function postNotice(ctx: ActionContext, bot: UserRow, stream: StreamRow, topic: string, content: string): Promise<number> {
  const userIds = await subscriberIds(ctx.tx, stream.recipient_id!);
  const destination = { recipientId: stream.recipient_id!, recipientType: RecipientType.STREAM, stream, topic, userIds };
  const { id } = await doSendMessage({ ...ctx, actor: bot }, destination, content, { client: 'Internal', readBySender: true });
  return id;
}

const RESOLVE_NOTICE = /^@_\*\*.*\*\* has marked this topic as (?:un)?resolved\.$/s;

/** Says the topic was (un)resolved, unless this undoes a resolve made moments ago: then that notice goes. */
async function noteResolve(ctx: ActionContext, bot: UserRow, plan: MovePlan, kind: 'resolved' | 'unresolved'): Promise<void> {
  const last = await ctx.tx
    .selectFrom('message')
    .selectAll()
    .where(inTopic(plan.targetStream.recipient_id!, plan.targetTopic))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const recentNotice =
    last !== undefined &&
    last.sender_id === bot.id &&
    RESOLVE_NOTICE.test(last.content) &&
    ctx.now - last.date_sent <= RESOLVE_UNDO_GRACE_SECONDS;
  if (recentNotice) {
    await doDeleteMessages(ctx, [last]);
    return;
  }
  await postNotice(ctx, bot, plan.targetStream, plan.targetTopic, resolveNotice(kind, ctx.actor));
}

export const afterMove = { prepare, finish };
