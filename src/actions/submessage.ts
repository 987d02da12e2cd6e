// POST /submessage's work: what a message's readers add to its widget (votes, options, tasks),
// checked as the widget's type requires and announced to everyone holding the message.
import type { MessageRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { validatePollData, validateTodoData } from '../lib/widget-data.js';
import { accessMessage, messageRecipientIds } from '../queries/messages.js';
import type { ActionContext } from './context.js';

/** The type of the widget a message defines, read from its first widget submessage. */
async function widgetTypeOf(ctx: ActionContext, messageId: number): Promise<unknown> {
  const widget = await ctx.tx
    .selectFrom('submessage')
    .select('content')
    .where('message_id', '=', messageId)
    .where('msg_type', '=', 'widget')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!widget) return undefined;
  try {
    const data: unknown = JSON.parse(widget.content);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).widget_type : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Readers collaborate on a message's submessages, but only its sender may attach the first one,
 * so nobody can turn someone else's plain message into a widget.
 */
async function checkSubmessageSender(ctx: ActionContext, message: MessageRow): Promise<void> {
  if (message.sender_id === ctx.actor.id) return;
  const bySender = await ctx.tx
    .selectFrom('submessage')
    .select('id')
    .where('message_id', '=', message.id)
    .where('sender_id', '=', message.sender_id)
    .limit(1)
    .executeTakeFirst();
  if (!bySender) throw new ApiError('You cannot attach a submessage to this message.');
}

export interface SubmessageRequest {
  messageId: number;
  msgType: string;
  content: string;
}

export async function checkAddSubmessage(ctx: ActionContext, request: SubmessageRequest): Promise<void> {
  const { message } = await accessMessage(ctx.tx, ctx.actor, request.messageId);
  if (request.msgType.includes('\u0000')) throw new ApiError('msg_type contains NULL (0x00) characters.');
  await checkSubmessageSender(ctx, message);
  let data: unknown;
  try {
    data = JSON.parse(request.content);
  } catch {
    throw new ApiError('Invalid json for submessage');
  }
  const widgetType = await widgetTypeOf(ctx, message.id);
  if (widgetType === 'poll') validatePollData(data, message.sender_id === ctx.actor.id);
  if (widgetType === 'todo') validateTodoData(data);
  const row = { message_id: message.id, sender_id: ctx.actor.id, msg_type: request.msgType, content: request.content };
  const { id } = await ctx.tx.insertInto('submessage').values(row).returning('id').executeTakeFirstOrThrow();
  const event = {
    type: 'submessage',
    msg_type: row.msg_type,
    message_id: message.id,
    submessage_id: id,
    sender_id: ctx.actor.id,
    content: row.content,
  };
  ctx.events.send(event, await messageRecipientIds(ctx.tx, [message.id]));
}
