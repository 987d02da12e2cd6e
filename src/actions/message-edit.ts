// PATCH /messages/{message_id}: validate the request in the reference's order, check every
// permission and time limit, then edit the content and/or move the messages in one transaction.
import type { MessageRow, StreamRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import {
  checkContentEdit,
  checkStreamMove,
  checkStreamPostPolicy,
  checkTopicEdit,
  checkWholeTopicMove,
  canMoveInto,
  moveDeadlineSeconds,
  type PropagateMode,
} from '../lib/edit-rules.js';
import { normalizeTopic } from '../lib/message-content.js';
import { realmSettings } from '../lib/realm-settings.js';
import { accessMessage } from '../queries/messages.js';
import { getStreamById, isSubscribed } from '../queries/streams.js';
import type { ActionContext } from './context.js';
import { checkWildcardMentions, type ContentEdit, normalizeEditedContent, renderEditedContent } from './message-edit-content.js';
import { doUpdateMessage } from './message-edit-apply.js';
import { type MovePlan, seesWholeHistory, visibleTopicMessages } from './message-move.js';

export interface UpdateMessageRequest {
  messageId: number;
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  sendNotificationToOldThread: boolean;
  sendNotificationToNewThread: boolean;
}

async function conversationOf(ctx: ActionContext, message: MessageRow): Promise<{ recipientType: number; stream: StreamRow | null }> {
  const recipient = await ctx.tx.selectFrom('recipient').selectAll().where('id', '=', message.recipient_id).executeTakeFirstOrThrow();
  if (recipient.type !== RecipientType.STREAM) return { recipientType: recipient.type, stream: null };
  const stream = await ctx.tx.selectFrom('stream').selectAll().where('id', '=', recipient.type_id).executeTakeFirstOrThrow();
  return { recipientType: recipient.type, stream };
}

/** The destination stream, if the actor could post there; unknown and inaccessible look alike. */
async function accessTargetStream(ctx: ActionContext, streamId: number): Promise<StreamRow> {
  const stream = await getStreamById(ctx.tx, ctx.realm.id, streamId);
  if (!stream || !canMoveInto(ctx.actor, stream, await isSubscribed(ctx.tx, ctx.actor.id, stream.recipient_id!))) {
    throw new ApiError('Invalid channel ID');
  }
  return stream;
}

export async function checkUpdateMessage(ctx: ActionContext, request: UpdateMessageRequest): Promise<void> {
  const { actor, now } = ctx;
  const settings = realmSettings(ctx.realm);
  const { message } = await accessMessage(ctx.tx, actor, request.messageId);
  const { propagateMode } = request;
  if (request.content !== undefined) checkContentEdit(actor, message.sender_id, message.date_sent, settings, now);

  let topic = request.topic?.trim();
  if (topic === message.subject) topic = undefined;
  const { recipientType, stream } = await conversationOf(ctx, message);
  let streamId = request.streamId;
  if (stream && streamId === stream.id) streamId = undefined;

  if (topic === undefined && request.content === undefined && streamId === undefined) throw new ApiError('Nothing to change');
  if (!stream) {
    if (streamId !== undefined) throw new ApiError('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw new ApiError('Direct messages cannot have topics.');
  }
  if (propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw new ApiError('Invalid propagate_mode without topic edit');
  }
  if (topic !== undefined) {
    topic = normalizeTopic(topic);
    if (topic === message.subject) topic = undefined;
    // "" for a message without a topic is no change once normalized.
    if (topic === undefined && request.content === undefined && streamId === undefined) throw new ApiError('Nothing to change');
  }
  if (streamId !== undefined && request.content !== undefined) {
    throw new ApiError('Cannot change message content while changing channel');
  }
  const targetStream = streamId === undefined ? stream : await accessTargetStream(ctx, streamId);

  if (topic !== undefined) checkTopicEdit(actor, message.date_sent, settings, now);

  let content: ContentEdit | null = null;
  if (request.content !== undefined) {
    content = await renderEditedContent(ctx, message, recipientType, normalizeEditedContent(request.content));
    if (stream) await checkWildcardMentions(ctx, stream, content);
  }

  let plan: MovePlan | null = null;
  if (stream && targetStream && (topic !== undefined || streamId !== undefined)) {
    if (streamId !== undefined) {
      checkStreamMove(actor, message.date_sent, settings, now);
      checkStreamPostPolicy(actor, targetStream, settings.waiting_period_threshold, now);
    }
    plan = { message, origStream: stream, targetStream, origTopic: message.subject, targetTopic: topic ?? message.subject, propagateMode };
    if (propagateMode === 'change_all') await checkTopicTimeLimit(ctx, plan, topic !== undefined, streamId !== undefined);
  }

  await doUpdateMessage(ctx, {
    message,
    stream,
    content,
    move: plan,
    notifyOld: request.sendNotificationToOldThread,
    notifyNew: request.sendNotificationToNewThread,
  });
}

/**
 * Moving a whole topic needs every message in it (that the actor may see) to be within the
 * applicable limit; otherwise MOVE_MESSAGES_TIME_LIMIT_EXCEEDED says how much could move.
 */
async function checkTopicTimeLimit(ctx: ActionContext, plan: MovePlan, topicChanges: boolean, streamChanges: boolean): Promise<void> {
  const deadline = moveDeadlineSeconds(ctx.actor, realmSettings(ctx.realm), topicChanges, streamChanges);
  if (deadline === null) return;
  const wholeHistory = await seesWholeHistory(ctx, plan.origStream);
  const messages = await visibleTopicMessages(ctx, plan.origStream, plan.origTopic, wholeHistory);
  checkWholeTopicMove(messages, deadline, ctx.now);
}
