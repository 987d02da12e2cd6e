// Typing notifications: nothing is stored, the only effect is an event to the people who would
// receive the message being typed.
//
// Unlike other actions this does not go through runAction: a typing client repeats `start` every
// few seconds and the notification changes no rows, so it reads through the shared read connection
// instead of queueing behind writers for a transaction it does not need, and publishes at once.
// The events still go through an EventBuffer, so they are checked and delivered like all others.
import type { UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { resolveSettings } from '../lib/settings-registry.js';
import { getUsersByIds } from '../queries/users.js';
import { accessStreamById } from '../queries/stream-access.js';
import { subscriberIds } from '../queries/streams.js';
import type { Services } from '../services.js';
import { EventBuffer } from './context.js';

export type TypingOp = 'start' | 'stop';

export type TypingTarget = { kind: 'direct'; userIds: number[] } | { kind: 'stream'; streamId: number; topic: string };

/** Beyond this many subscribers a stream gets no typing notifications (the reference's limit). */
export const MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

const person = (user: Pick<UserRow, 'id' | 'email'>) => ({ user_id: user.id, email: user.email });

interface Notification {
  event: Record<string, unknown>;
  users: number[];
}

async function directNotification(services: Services, sender: UserRow, op: TypingOp, toIds: number[]): Promise<Notification> {
  if (toIds.length === 0) throw new ApiError("Empty 'to' list");
  // A request naming anyone unknown is refused whole: a partial list would describe another conversation.
  const found = new Map((await getUsersByIds(services.db, sender.realm_id, toIds)).map((u) => [u.id, u]));
  const missing = toIds.find((id) => !found.has(id));
  if (missing !== undefined) throw new ApiError(`Invalid user ID ${missing}`);
  found.set(sender.id, sender);
  const ids = [...new Set([...toIds, sender.id])];
  const recipients = ids.map((id) => found.get(id)!);
  const event = { type: 'typing', op, message_type: 'direct', sender: person(sender), recipients: recipients.map(person) };
  // Deactivated recipients stay in the list (it names the conversation) but are not notified.
  return { event, users: recipients.filter((u) => u.is_active).map((u) => u.id) };
}

async function streamNotification(
  services: Services,
  sender: UserRow,
  op: TypingOp,
  streamId: number,
  topic: string,
): Promise<Notification> {
  const { stream } = await accessStreamById(services.db, sender, streamId);
  const event = { type: 'typing', op, message_type: 'stream', sender: person(sender), stream_id: stream.id, topic };
  const subscribers = await subscriberIds(services.db, stream.recipient_id!);
  // Large streams get none, to spare every subscriber's clients a stream of events.
  const users = subscribers.length > MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS ? [] : subscribers;
  return { event, users };
}

/**
 * Tells the people who would receive the message `sender` is composing that they started or stopped
 * typing. Checks the target first, so bad requests fail even when the sender's setting is off; with
 * the setting off the request succeeds and nobody is told.
 */
export async function sendTypingNotification(
  services: Services,
  sender: UserRow,
  op: TypingOp,
  target: TypingTarget,
): Promise<void> {
  const notification =
    target.kind === 'direct'
      ? await directNotification(services, sender, op, target.userIds)
      : await streamNotification(services, sender, op, target.streamId, target.topic);
  // As the reference: a sender who turned typing notifications off is told so.
  const settings = resolveSettings(sender.settings);
  if (target.kind === 'direct' && !settings.send_private_typing_notifications) {
    throw new ApiError('User has disabled typing notifications for direct messages');
  }
  if (target.kind === 'stream' && !settings.send_stream_typing_notifications) {
    throw new ApiError('User has disabled typing notifications for channel messages');
  }
  const buffer = new EventBuffer(services.checkEvents ?? false);
  buffer.send(notification.event, notification.users);
  if (buffer.pending.length > 0) await services.bus.publish(buffer.pending);
}
