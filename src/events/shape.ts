// How one event looks to one queue's client: filtered by event types and narrow, and shaped by
// the client's capabilities and settings. A delivery builds each distinct shape once.
import type { UserRow } from '../db/schema.js';
import type { MessagePredicate } from '../lib/narrow/predicate.js';
import type { MessageFacts } from '../lib/narrow/types.js';
import { clientDerivesAvatar } from '../lib/user-format.js';
import type { EventQueue } from './queue.js';
import type { ApiEvent } from './types.js';

/**
 * What a message event carries for the registry only, under the `internal` key (removed before
 * any client sees the event): the raw Markdown and the facts the narrow filter and the
 * per-client avatar rule need.
 */
export interface MessageInternals {
  raw_content: string;
  recipient_type: number;
  has_link: boolean;
  has_image: boolean;
  has_attachment: boolean;
  /** The recipients' user_message flag bits (one event per distinct set of flags). */
  flag_bits: number;
  sender: Pick<UserRow, 'id' | 'is_bot' | 'settings' | 'avatar_source'>;
  /** On the copy of a public stream message for all_public_streams queues: who got it already. */
  all_public_streams?: { realm_id: number; recipients: number[] };
}

/** What shaping needs of a queue's registry entry. */
export interface ShapeTarget {
  queue: EventQueue;
  viewer: Pick<UserRow, 'id' | 'role'>;
  /** null: the queue has no narrow. */
  matches: MessagePredicate | null;
}

function messageFacts(message: Record<string, unknown>, internal: MessageInternals): MessageFacts {
  return {
    id: message.id as number,
    senderId: message.sender_id as number,
    recipientId: message.recipient_id as number,
    recipientType: internal.recipient_type,
    topic: message.subject as string,
    content: internal.raw_content,
    flags: internal.flag_bits,
    hasLink: internal.has_link,
    hasImage: internal.has_image,
    hasAttachment: internal.has_attachment,
    hasReaction: Array.isArray(message.reactions) && message.reactions.length > 0,
  };
}

/** Shape keys by (raw, noAvatar, echo), so a key is not built for every queue. */
const MESSAGE_SHAPES = Array.from({ length: 8 }, (_, i) => `message/${Boolean(i & 4)}/${Boolean(i & 2)}/${Boolean(i & 1)}`);

function shapeMessage(entry: ShapeTarget, event: ApiEvent, shapes: Map<string, ApiEvent[]>): ApiEvent[] {
  const facts = event.internal as MessageInternals | undefined;
  const original = event.message as Record<string, unknown>;
  if (facts && entry.matches && !entry.matches(messageFacts(original, facts))) return [];
  const { spec } = entry.queue;
  const raw = Boolean(facts && !spec.applyMarkdown);
  const noAvatar = Boolean(facts && clientDerivesAvatar(facts.sender, spec.clientGravatar));
  const echo = event.sender_queue_id !== undefined && event.sender_queue_id === entry.queue.id && event.local_message_id !== undefined;
  const key = MESSAGE_SHAPES[(raw ? 4 : 0) | (noAvatar ? 2 : 0) | (echo ? 1 : 0)]!;
  const known = shapes.get(key);
  if (known) return known;
  const { internal: _internal, sender_queue_id: _senderQueueId, local_message_id: localId, ...rest } = event;
  const message = { ...original };
  if (raw) {
    message.content = facts!.raw_content;
    message.content_type = 'text/x-markdown';
  }
  if (noAvatar) message.avatar_url = null;
  const shaped: ApiEvent = { ...rest, message };
  if (echo) shaped.local_message_id = localId;
  shapes.set(key, [shaped]);
  return [shaped];
}

/** The event as this queue's client should see it: none, one, or (old deletion form) several. */
export function shapeFor(entry: ShapeTarget, event: ApiEvent, shapes: Map<string, ApiEvent[]>): ApiEvent[] {
  const { spec } = entry.queue;
  if (spec.eventTypes !== null && !spec.eventTypes.includes(event.type)) return [];
  switch (event.type) {
    case 'message':
      return shapeMessage(entry, event, shapes);
    case 'delete_message': {
      if (spec.capabilities.bulk_message_deletion || !Array.isArray(event.message_ids)) return [event];
      const known = shapes.get('delete_message/single');
      if (known) return known;
      const { message_ids: ids, ...rest } = event;
      const split = (ids as number[]).map((id) => ({ ...rest, message_id: id }));
      shapes.set('delete_message/single', split);
      return split;
    }
    case 'realm_linkifiers':
      // Documented for template-aware clients only; the others' register state holds none.
      return spec.capabilities.linkifier_url_template ? [event] : [];
    case 'muted_topics':
      // The legacy form goes only to clients that did not ask for its successor.
      return spec.eventTypes?.includes('user_topic') ? [] : [event];
    case 'typing':
      if (event.message_type === 'stream' && !spec.capabilities.stream_typing_notifications) return [];
      return [event];
    case 'update_display_settings':
    case 'update_global_notifications':
      // The legacy forms of user_settings events, for clients that do not read user_settings.
      return spec.capabilities.user_settings_object ? [] : [event];
    default:
      return [event];
  }
}
