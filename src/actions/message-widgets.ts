// The widget a message asks for when it is sent (/poll, /todo), stored as its first submessage
// in the send's transaction.
import type { MessageRow, SubmessageRow } from '../db/schema.js';
import { pythonJson, widgetFromContent } from '../lib/widgets.js';
import type { ActionContext } from './context.js';

/** Stores the widget a just-sent message asks for, if any; returns the message's submessages. */
export async function addWidgetSubmessage(ctx: ActionContext, message: Pick<MessageRow, 'id' | 'sender_id' | 'content'>): Promise<SubmessageRow[]> {
  const widget = widgetFromContent(message.content);
  if (!widget) return [];
  const row = { message_id: message.id, sender_id: message.sender_id, msg_type: 'widget', content: pythonJson(widget) };
  const { id } = await ctx.tx.insertInto('submessage').values(row).returning('id').executeTakeFirstOrThrow();
  return [{ id, ...row }];
}
