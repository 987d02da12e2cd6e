// Scheduling, editing and cancelling messages to be sent later. Each is checked as a send would
// be now (the recipients, the sender's rights, the content) and announced to the sender's clients.
import { RecipientType } from '../db/schema.js';
import { ApiError, NotFoundError } from '../errors.js';
import type { Addressee } from '../lib/addressee.js';
import { defaultReadBySender } from '../lib/client-name.js';
import { normalizeTopic } from '../lib/message-content.js';
import { checkDeliveryTime, type ScheduledType, scheduledAddressee } from '../lib/scheduled-messages.js';
import { ownScheduledMessage, scheduledAddressees, scheduledMessagesOf } from '../queries/scheduled-messages.js';
import type { ActionContext } from './context.js';
import { checkMessage, type Destination } from './message-send.js';
import { checkWildcardPolicy, renderForSend } from './message-render.js';

export interface ScheduleSpec {
  type: ScheduledType;
  to: string;
  topic?: string;
  content: string;
  deliverAt: number;
  client: string;
  readBySender?: boolean;
}

/** The checks and rendering a send makes, without sending. */
async function checkScheduled(ctx: ActionContext, addressee: Addressee, rawContent: string) {
  const { destination, content } = await checkMessage(ctx, addressee, rawContent);
  const rendered = await renderForSend(ctx, destination, content);
  if (destination.stream) await checkWildcardPolicy(ctx, rendered, () => destination.userIds.length);
  return { destination, content, renderedContent: rendered.html };
}

function toSelfOnly(ctx: ActionContext, destination: Destination): boolean {
  return destination.recipientType !== RecipientType.STREAM && destination.userIds.every((id) => id === ctx.actor.id);
}

/** Tells the sender's clients about a new or changed scheduled message. */
export async function announceScheduledMessage(ctx: ActionContext, id: number, op: 'add' | 'update'): Promise<void> {
  const [dict] = await scheduledMessagesOf(ctx.tx, ctx.actor.id, [id]);
  const event = op === 'add' ? { type: 'scheduled_messages', op, scheduled_messages: [dict] } : { type: 'scheduled_messages', op, scheduled_message: dict };
  ctx.events.send(event, [ctx.actor.id]);
}

/** POST /scheduled_messages: returns the new scheduled message's id. */
export async function doScheduleMessage(ctx: ActionContext, spec: ScheduleSpec): Promise<number> {
  checkDeliveryTime(spec.deliverAt, ctx.now);
  const addressee = scheduledAddressee(spec.type, spec.to, spec.topic);
  const { destination, content, renderedContent } = await checkScheduled(ctx, addressee, spec.content);
  // Without a choice, a full client marks its user's message read, unless they wrote to themselves.
  const readBySender = spec.readBySender ?? (defaultReadBySender(spec.client) && !toSelfOnly(ctx, destination));
  const { id } = await ctx.tx
    .insertInto('scheduled_message')
    .values({
      realm_id: ctx.realm.id,
      sender_id: ctx.actor.id,
      recipient_id: destination.recipientId,
      subject: destination.topic,
      content,
      rendered_content: renderedContent,
      sending_client: spec.client,
      scheduled_timestamp: spec.deliverAt,
      read_by_sender: readBySender ? 1 : 0,
      delivered: 0,
      failed: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await announceScheduledMessage(ctx, id, 'add');
  return id;
}

export interface ScheduledEdit {
  type?: ScheduledType;
  to?: string;
  topic?: string;
  content?: string;
  deliverAt?: number;
  client: string;
}

/** The request's own checks, before the scheduled message is looked up. */
export function checkScheduledEdit(edit: ScheduledEdit, now: number): void {
  const { type, to, topic, content, deliverAt } = edit;
  if (type === undefined && to === undefined && topic === undefined && content === undefined && deliverAt === undefined) {
    throw new ApiError('Nothing to change');
  }
  if (type !== undefined && to === undefined) throw new ApiError('Recipient required when updating type of scheduled message.');
  if (type === 'stream' && topic === undefined) throw new ApiError('Topic required when updating scheduled message type to stream.');
  if (deliverAt !== undefined) checkDeliveryTime(deliverAt, now);
}

/** PATCH /scheduled_messages/{id}. */
export async function doEditScheduledMessage(ctx: ActionContext, id: number, edit: ScheduledEdit): Promise<void> {
  checkScheduledEdit(edit, ctx.now);
  const row = await ownScheduledMessage(ctx.tx, ctx.actor.id, id);
  if (!row) throw new NotFoundError('Scheduled message does not exist');
  if (row.delivered) throw new ApiError('Scheduled message was already sent');
  // One that failed goes out again only at a new time, which must be given.
  if (row.failed && edit.deliverAt === undefined) throw new ApiError('Scheduled delivery time must be in the future.');
  const existing = await scheduledAddressees(ctx.tx, row);
  const changes: Record<string, string | number | null> = { sending_client: edit.client, failed: 0, failure_message: null };
  if (edit.type !== undefined || edit.to !== undefined || edit.content !== undefined) {
    const type = edit.type ?? (existing.type === 'stream' ? 'stream' : 'private');
    const to = edit.to ?? JSON.stringify(type === 'stream' ? existing.to[0] : existing.to);
    const addressee = scheduledAddressee(type, to, edit.topic ?? row.subject);
    const checked = await checkScheduled(ctx, addressee, edit.content ?? row.content);
    if (edit.type !== undefined || edit.to !== undefined) {
      Object.assign(changes, { recipient_id: checked.destination.recipientId, subject: checked.destination.topic });
    } else if (edit.topic !== undefined && existing.type === 'stream') {
      changes.subject = checked.destination.topic;
    }
    if (edit.content !== undefined) Object.assign(changes, { content: checked.content, rendered_content: checked.renderedContent });
  } else if (edit.topic !== undefined && existing.type === 'stream') {
    changes.subject = normalizeTopic(edit.topic);
  }
  if (edit.deliverAt !== undefined) changes.scheduled_timestamp = edit.deliverAt;
  await ctx.tx.updateTable('scheduled_message').set(changes).where('id', '=', id).execute();
  await announceScheduledMessage(ctx, id, 'update');
}

/** DELETE /scheduled_messages/{id}. */
export async function doDeleteScheduledMessage(ctx: ActionContext, id: number): Promise<void> {
  const row = await ownScheduledMessage(ctx.tx, ctx.actor.id, id);
  if (!row) throw new NotFoundError('Scheduled message does not exist');
  await ctx.tx.deleteFrom('scheduled_message').where('id', '=', id).execute();
  ctx.events.send({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [ctx.actor.id]);
}
