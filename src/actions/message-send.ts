// Sending a message: resolve and check the recipients, render, store the message with one
// user_message row per recipient, and announce it with message events.
import type { StreamRow, UserRow } from '../db/schema.js';
import { RecipientType } from '../db/schema.js';
import { insertMessage } from '../db/user-message-insert.js';
import { ApiError, StreamDoesNotExistError, StreamIdDoesNotExistError } from '../errors.js';
import type { Addressee } from '../lib/addressee.js';
import { checkStreamPostPolicy } from '../lib/edit-rules.js';
import type { CompiledLinkifier } from '../lib/linkifiers/index.js';
import { realmLinkifiers } from '../queries/linkifier-cache.js';
import { renderMarkdown } from '../lib/markdown/index.js';
import { normalizeContent, normalizeTopic } from '../lib/message-content.js';
import { FLAG_BITS, flagNames, groupByFlags } from '../lib/message-flags.js';
import { type DisplayRecipient, type MessageParts, messageDict } from '../lib/message-format.js';
import { canSeeStream } from '../lib/permissions.js';
import { realmSettings } from '../lib/realm-settings.js';
import { huddleHashOf, usersByIds } from '../queries/recipients.js';
import { applyRecipientPreferences } from '../queries/recipient-preferences.js';
import { getStreamByIdAnyState, getStreamByName, subscriberIds } from '../queries/streams.js';
import { findUsersByEmailsFor } from '../queries/users.js';
import type { MessageInternals } from '../events/shape.js';
import { syncMessageAttachments } from './attachments.js';
import type { ActionContext } from './context.js';
import { addWidgetSubmessage } from './message-widgets.js';
import { getOrCreateDirectMessageGroup } from './direct-message-group.js';
import { checkWildcardPolicy, renderForSend } from './message-render.js';

export interface SendMessageSpec {
  addressee: Addressee;
  content: string;
  client: string;
  readBySender: boolean;
  /** Echoed as local_message_id to the sender's own queue. */
  localId?: string;
  queueId?: string;
}

export interface Destination {
  recipientId: number;
  recipientType: number;
  stream?: StreamRow;
  topic: string;
  /** Everyone who receives the message, the sender included. */
  userIds: number[];
  /** The conversation's members, for direct messages. */
  people?: UserRow[];
}

async function resolveDirectUsers(ctx: ActionContext, addressee: Extract<Addressee, { kind: 'direct' }>): Promise<UserRow[]> {
  const realmId = ctx.realm.id;
  if (addressee.userIds) {
    const found = new Map((await usersByIds(ctx.tx, realmId, addressee.userIds)).map((u) => [u.id, u]));
    const missing = addressee.userIds.find((id) => !found.has(id));
    if (missing !== undefined) throw new ApiError(`Invalid user ID ${missing}`);
    return [...found.values()];
  }
  // A hidden real address is as unknown as a mistyped one.
  const found = await findUsersByEmailsFor(ctx.tx, ctx.actor, ctx.realm, addressee.emails);
  const missing = addressee.emails.find((e) => !found.has(e));
  if (missing !== undefined) throw new ApiError(`Invalid email '${missing}'`);
  return [...new Map([...found.values()].map((u) => [u.id, u])).values()];
}

/** The recipient of a direct conversation with these people, after the send path's checks on them. */
export async function directRecipientOf(ctx: ActionContext, userIds: number[]): Promise<number> {
  const users = await resolveDirectUsers(ctx, { kind: 'direct', userIds });
  return (await directDestination(ctx, users)).recipientId;
}

async function directDestination(ctx: ActionContext, users: UserRow[]): Promise<Destination> {
  const inactive = users.find((u) => !u.is_active && u.id !== ctx.actor.id);
  if (inactive) throw new ApiError(`'${inactive.email}' is no longer using Zulip.`);
  const people = [ctx.actor, ...users.filter((u) => u.id !== ctx.actor.id)];
  const userIds = people.map((u) => u.id);
  if (people.length <= 2) {
    const other = people[1] ?? ctx.actor;
    return { recipientId: other.recipient_id!, recipientType: RecipientType.PERSONAL, topic: '', userIds, people };
  }
  const recipientId = await getOrCreateDirectMessageGroup(ctx, huddleHashOf(userIds), userIds.length);
  return { recipientId, recipientType: RecipientType.DIRECT_MESSAGE_GROUP, topic: '', userIds, people };
}

async function streamDestination(ctx: ActionContext, addressee: Extract<Addressee, { kind: 'stream' }>): Promise<Destination> {
  const { tx, realm, actor } = ctx;
  // By id, an archived stream is still found (it is private and has no subscribers, so the
  // sender is refused below); by name it is not, as it was renamed when archived.
  const stream =
    addressee.streamId !== undefined
      ? await getStreamByIdAnyState(tx, realm.id, addressee.streamId)
      : await getStreamByName(tx, realm.id, addressee.streamName);
  if (!stream) {
    throw addressee.streamId !== undefined
      ? new StreamIdDoesNotExistError(addressee.streamId)
      : new StreamDoesNotExistError(addressee.streamName);
  }
  // The subscriber list is needed anyway; whether the sender (or a bot's owner) is on it follows from it.
  const userIds = await subscriberIds(tx, stream.recipient_id!);
  const subscribed = userIds.includes(actor.id);
  const ownerSubscribed = actor.is_bot && actor.bot_owner_id !== null && userIds.includes(actor.bot_owner_id);
  if (!subscribed && !ownerSubscribed && (stream.invite_only || !canSeeStream(actor, stream, false))) {
    throw new ApiError(`Not authorized to send to channel '${stream.name}'`);
  }
  checkStreamPostPolicy(actor, stream, realmSettings(realm).waiting_period_threshold, ctx.now);
  const topic = normalizeTopic(addressee.topic);
  if (realmSettings(realm).mandatory_topics && topic === '(no topic)') {
    throw new ApiError('Topics are required in this organization');
  }
  return { recipientId: stream.recipient_id!, recipientType: RecipientType.STREAM, stream, topic, userIds };
}

/** Where a message to these addressees goes, after every check the send path makes; and its content. */
export async function checkMessage(ctx: ActionContext, addressee: Addressee, rawContent: string): Promise<{ destination: Destination; content: string }> {
  const directUsers = addressee.kind === 'direct' ? await resolveDirectUsers(ctx, addressee) : null;
  const content = normalizeContent(rawContent);
  const destination = addressee.kind === 'stream' ? await streamDestination(ctx, addressee) : await directDestination(ctx, directUsers!);
  return { destination, content };
}

export async function checkSendMessage(ctx: ActionContext, spec: SendMessageSpec): Promise<{ id: number }> {
  const { destination, content } = await checkMessage(ctx, spec.addressee, spec.content);
  return doSendMessage(ctx, destination, content, spec);
}

/** Per-recipient flags from who the sender is and whom the content mentions. */
function recipientFlags(ctx: ActionContext, destination: Destination, rendered: ReturnType<typeof renderMarkdown>, readBySender: boolean) {
  const base = destination.recipientType === RecipientType.STREAM ? 0 : FLAG_BITS.is_private;
  const flags = new Map<number, number>();
  for (const userId of new Set([...destination.userIds, ctx.actor.id])) {
    let bits = base;
    if (userId === ctx.actor.id && readBySender) bits |= FLAG_BITS.read;
    if (rendered.mentionedUserIds.has(userId)) bits |= FLAG_BITS.mentioned;
    if (rendered.streamWildcard && userId !== ctx.actor.id) bits |= FLAG_BITS.stream_wildcard_mentioned;
    if (rendered.topicWildcard && userId !== ctx.actor.id && (rendered.topicWildcardUserIds?.has(userId) ?? true)) {
      bits |= FLAG_BITS.topic_wildcard_mentioned;
    }
    flags.set(userId, bits);
  }
  return flags;
}

export async function doSendMessage(
  ctx: ActionContext,
  destination: Destination,
  content: string,
  spec: Pick<SendMessageSpec, 'client' | 'readBySender' | 'localId' | 'queueId'>,
): Promise<{ id: number }> {
  const { tx, actor, realm } = ctx;
  const linkifiers = await realmLinkifiers(tx, realm.id);
  const rendered = await renderForSend(ctx, destination, content);
  if (destination.stream) await checkWildcardPolicy(ctx, rendered, () => destination.userIds.length);
  const row = {
    realm_id: realm.id,
    sender_id: actor.id,
    recipient_id: destination.recipientId,
    subject: destination.topic,
    content,
    rendered_content: rendered.html,
    rendered_content_version: 1,
    date_sent: ctx.now,
    sending_client: spec.client,
    last_edit_time: null,
    last_moved_time: null,
    edit_history: null,
    has_link: rendered.hasLink ? 1 : 0,
    has_image: rendered.hasImage ? 1 : 0,
    has_attachment: 0,
    is_me_message: rendered.isMeMessage ? 1 : 0,
  };
  const flags = recipientFlags(ctx, destination, rendered, spec.readBySender);
  await applyRecipientPreferences({ db: tx, bus: ctx.services.bus, realmId: realm.id, senderId: actor.id }, flags, content);
  const id = await insertMessage(tx, row, flags);
  if (rendered.html.includes('user_uploads/') && (await syncMessageAttachments(ctx, { id, realm_id: realm.id }, actor, rendered.html))) {
    row.has_attachment = 1;
    await tx.updateTable('message').set({ has_attachment: 1 }).where('id', '=', id).execute();
  }
  const submessages = await addWidgetSubmessage(ctx, { id, sender_id: actor.id, content });
  if (destination.stream && destination.stream.first_message_id === null) {
    await tx.updateTable('stream').set({ first_message_id: id }).where('id', '=', destination.stream.id).execute();
  }
  const publicStream = destination.stream !== undefined && !destination.stream.invite_only;
  announce(ctx, { message: { ...row, id }, sender: actor, recipient: displayRecipient(destination), reactions: [], submessages }, flags, spec, linkifiers, publicStream);
  return { id };
}

function displayRecipient(destination: Destination): DisplayRecipient {
  if (destination.stream) {
    return { type: RecipientType.STREAM, streamId: destination.stream.id, streamName: destination.stream.name };
  }
  const type = destination.recipientType as typeof RecipientType.PERSONAL | typeof RecipientType.DIRECT_MESSAGE_GROUP;
  return { type, users: destination.people ?? [] };
}

/** One message event per distinct set of flags, so each recipient learns its own. */
function announce(
  ctx: ActionContext,
  parts: MessageParts,
  flags: Map<number, number>,
  spec: Pick<SendMessageSpec, 'localId' | 'queueId'>,
  linkifiers: readonly CompiledLinkifier[],
  publicStream: boolean,
) {
  const realmView = { string_id: ctx.realm.string_id, settings: realmSettings(ctx.realm), linkifiers };
  const dict = messageDict(parts, ctx.actor, realmView, {
    applyMarkdown: true,
    clientGravatar: false,
  });
  const byFlags = groupByFlags(flags);
  const { message, sender } = parts;
  const internalWith = (bits: number): MessageInternals => ({
    raw_content: message.content,
    recipient_type: parts.recipient.type,
    has_link: Boolean(message.has_link),
    has_image: Boolean(message.has_image),
    has_attachment: Boolean(message.has_attachment),
    flag_bits: bits,
    sender: { id: sender.id, is_bot: sender.is_bot, settings: sender.settings, avatar_source: sender.avatar_source },
  });
  for (const [bits, userIds] of byFlags) {
    const internal = internalWith(bits);
    // `internal` is for the queue registry, which removes it before any client sees the event.
    const event: Record<string, unknown> = { type: 'message', message: dict, flags: flagNames(bits), internal };
    if (spec.queueId !== undefined && spec.localId !== undefined && userIds.includes(ctx.actor.id)) {
      event.sender_queue_id = spec.queueId;
      event.local_message_id = spec.localId;
    }
    ctx.events.send(event, userIds);
  }
  if (publicStream) {
    // Queues registered with all_public_streams take public stream messages whoever they belong to;
    // people without the message in their history get it without flags.
    const internal: MessageInternals = { ...internalWith(0), all_public_streams: { realm_id: ctx.realm.id, recipients: [...flags.keys()] } };
    ctx.events.sendUnaddressed({ type: 'message', message: dict, flags: [], internal });
  }
}
