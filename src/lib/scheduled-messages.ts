// The rules of scheduled messages that need no store: how `to` is read for each type, and the
// API's form of a scheduled message.
import { ApiError } from '../errors.js';
import type { Addressee } from './addressee.js';
import type { ConversationAddressees } from './conversation-addressees.js';
import { MAX_DM_RECIPIENTS, tooManyItems } from './limits.js';

/** A scheduled message more than this late is not sent: its recipients would find it out of place. */
export const LATE_CUTOFF_SECONDS = 10 * 60;

export type ScheduledType = 'stream' | 'private';

export const SCHEDULED_TYPES = ['direct', 'channel', 'stream', 'private'] as const;

/** The API's types, with `channel` and `direct` as the newer names of `stream` and `private`. */
export function scheduledType(type: string): ScheduledType {
  return type === 'stream' || type === 'channel' ? 'stream' : 'private';
}

/** A channel is named by its id alone, as an integer. */
export function scheduledStreamId(rawTo: string): number {
  const trimmed = rawTo.trim();
  if (!/^[+-]?\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) throw new ApiError('Invalid data type for channel ID');
  return Number(trimmed);
}

/** People are named by a JSON list of user ids. */
export function scheduledRecipientIds(rawTo: string): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawTo);
  } catch {
    parsed = rawTo;
  }
  if (!Array.isArray(parsed)) throw new ApiError('Invalid data type for recipients');
  if (!parsed.every((id) => typeof id === 'number' && Number.isSafeInteger(id))) throw new ApiError('Recipient list may only contain user IDs');
  const ids = [...new Set(parsed as number[])];
  if (ids.length > MAX_DM_RECIPIENTS) throw tooManyItems('to', MAX_DM_RECIPIENTS);
  return ids;
}

export function scheduledAddressee(type: ScheduledType, rawTo: string, topic: string | undefined): Addressee {
  if (type === 'stream') {
    const streamId = scheduledStreamId(rawTo);
    if (topic === undefined) throw new ApiError('Missing topic');
    return { kind: 'stream', streamId, topic };
  }
  return { kind: 'direct', userIds: scheduledRecipientIds(rawTo) };
}

export function checkDeliveryTime(timestamp: number, now: number): void {
  if (timestamp <= now) throw new ApiError('Scheduled delivery time must be in the future.');
}

export interface ScheduledMessageDict {
  scheduled_message_id: number;
  type: ScheduledType;
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export function scheduledMessageDict(
  row: { id: number; subject: string; content: string; rendered_content: string; scheduled_timestamp: number; failed: number },
  addressees: ConversationAddressees,
): ScheduledMessageDict {
  const common = {
    scheduled_message_id: row.id,
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: Number(row.scheduled_timestamp),
    failed: Boolean(row.failed),
  };
  if (addressees.type === 'stream') return { ...common, type: 'stream', to: addressees.to[0]!, topic: row.subject };
  return { ...common, type: 'private', to: addressees.to };
}

/** A moment as the global-time Markdown writes it, in UTC with an explicit offset. */
function globalTime(timestamp: number): string {
  return new Date(Math.floor(timestamp) * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** The content of the note Notification Bot sends when a scheduled message could not be sent. */
export function failureNotice(scheduledTimestamp: number, error: string): string {
  return [
    `The message you scheduled for <time:${globalTime(scheduledTimestamp)}> was not sent because of the following error:`,
    '',
    `> ${error}`,
    '',
    '[View scheduled messages](#scheduled)',
  ].join('\n');
}
