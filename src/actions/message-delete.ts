// Deleting messages: permission and time-limit checks, the rows, and delete_message events.
import type { MessageRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { passesPolicy } from '../lib/permissions.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isAdmin } from '../lib/roles.js';
import { accessMessage, messageRecipientIds } from '../queries/messages.js';
import { getUserById } from '../queries/users.js';
import { unlinkDeletedMessages } from './attachments.js';
import type { ActionContext } from './context.js';

async function checkCanDelete(ctx: ActionContext, message: MessageRow): Promise<void> {
  const { actor, realm, now } = ctx;
  if (isAdmin(actor)) return;
  const settings = realmSettings(realm);
  let ownMessage = message.sender_id === actor.id;
  if (!ownMessage) {
    const sender = await getUserById(ctx.tx, realm.id, message.sender_id);
    ownMessage = sender?.bot_owner_id === actor.id;
  }
  if (!ownMessage || !passesPolicy(actor, settings.delete_own_message_policy, settings.waiting_period_threshold, now)) {
    throw new ApiError("You don't have permission to delete this message");
  }
  const limit = settings.message_content_delete_limit_seconds;
  if (limit !== null && now - message.date_sent > limit) {
    throw new ApiError('The time limit for deleting this message has passed');
  }
}

export async function checkDeleteMessage(ctx: ActionContext, messageId: number): Promise<void> {
  const { message } = await accessMessage(ctx.tx, ctx.actor, messageId);
  await checkCanDelete(ctx, message);
  await doDeleteMessages(ctx, [message]);
}

/** Deletes messages of one conversation and tells everyone who had them. */
export async function doDeleteMessages(ctx: ActionContext, messages: MessageRow[]): Promise<void> {
  if (messages.length === 0) return;
  const ids = messages.map((m) => m.id);
  const audience = await messageRecipientIds(ctx.tx, ids);
  // Only a message with has_attachment set can have links (send and edit keep the two in step).
  await unlinkDeletedMessages(ctx, messages.filter((m) => m.has_attachment).map((m) => m.id));
  await ctx.tx.deleteFrom('reaction').where('message_id', 'in', ids).execute();
  await ctx.tx.deleteFrom('submessage').where('message_id', 'in', ids).execute();
  await ctx.tx.deleteFrom('user_message').where('message_id', 'in', ids).execute();
  await ctx.tx.deleteFrom('message').where('id', 'in', ids).execute();
  const first = messages[0]!;
  const recipient = await ctx.tx.selectFrom('recipient').selectAll().where('id', '=', first.recipient_id).executeTakeFirstOrThrow();
  const event: Record<string, unknown> = {
    type: 'delete_message',
    message_ids: [...ids].sort((a, b) => a - b),
    message_type: recipient.type === RecipientType.STREAM ? 'stream' : 'private',
  };
  if (recipient.type === RecipientType.STREAM) {
    event.stream_id = recipient.type_id;
    event.topic = first.subject;
  }
  ctx.events.send(event, audience);
}
