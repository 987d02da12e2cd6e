// Turns stored message rows into the API's message dictionaries (GET /messages, GET /messages/{id},
// message events). Everything needed is loaded by the caller; this file does no I/O.
import type { MessageRow, ReactionRow, SubmessageRow, UserRow } from '../types/rows.js';
import { RecipientType } from '../types/rows.js';
import type { CompiledLinkifier } from './linkifiers/match.js';
import { topicLinks } from './linkifiers/topic-links.js';
import { flagNames } from './message-flags.js';
import type { RealmSettings } from './realm-settings.js';
import { avatarUrl } from './user-format.js';

type Person = Pick<UserRow, 'id' | 'email' | 'full_name'>;

/** Where a message went, resolved for display. */
export type DisplayRecipient =
  | { type: typeof RecipientType.STREAM; streamId: number; streamName: string }
  | { type: typeof RecipientType.PERSONAL | typeof RecipientType.DIRECT_MESSAGE_GROUP; users: Person[] };

export interface MessageParts {
  message: MessageRow;
  sender: UserRow;
  recipient: DisplayRecipient;
  reactions: Array<{ reaction: ReactionRow; user: Person }>;
  /** In id order. */
  submessages: SubmessageRow[];
}

export interface MessageDictOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
}

export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_rendered_content_version?: number;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

/** The edit history a viewer may see under the realm's visibility policy; undefined hides the field. */
export function visibleEditHistory(
  stored: string | null,
  policy: RealmSettings['message_edit_history_visibility_policy'],
): EditHistoryEntry[] | undefined {
  if (!stored || policy === 'none') return undefined;
  const entries = JSON.parse(stored) as EditHistoryEntry[];
  if (policy === 'all') return entries;
  const moves = entries
    .filter((e) => e.prev_topic !== undefined || e.prev_stream !== undefined)
    .map(({ prev_content: _c, prev_rendered_content: _r, prev_rendered_content_version: _v, ...rest }) => rest);
  return moves.length > 0 ? moves : undefined;
}

function displayRecipient(recipient: DisplayRecipient): string | Array<Record<string, unknown>> {
  if (recipient.type === RecipientType.STREAM) return recipient.streamName;
  return [...recipient.users]
    .sort((a, b) => a.id - b.id)
    .map((u) => ({ id: u.id, email: u.email, full_name: u.full_name, is_mirror_dummy: false }));
}

export function reactionDict(reaction: ReactionRow, user: Person) {
  return {
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: reaction.reaction_type,
    user_id: reaction.user_id,
    user: { id: user.id, email: user.email, full_name: user.full_name, is_mirror_dummy: false },
  };
}

export function submessageDict(submessage: SubmessageRow) {
  const { msg_type, content, message_id, sender_id, id } = submessage;
  return { msg_type, content, message_id, sender_id, id };
}

export function messageDict(
  parts: MessageParts,
  // Unused: addresses and avatars in a message read the same for every viewer.
  _viewer: Pick<UserRow, 'id' | 'role'>,
  realm: { string_id: string; settings: RealmSettings; linkifiers: readonly CompiledLinkifier[] },
  options: MessageDictOptions,
  flags?: number,
): Record<string, unknown> {
  const { message, sender, recipient } = parts;
  const isStream = recipient.type === RecipientType.STREAM;
  const dict: Record<string, unknown> = {
    id: message.id,
    sender_id: message.sender_id,
    content: options.applyMarkdown ? message.rendered_content : message.content,
    recipient_id: message.recipient_id,
    timestamp: message.date_sent,
    client: message.sending_client,
    subject: message.subject,
    topic_links: topicLinks(message.subject, realm.linkifiers),
    is_me_message: Boolean(message.is_me_message),
    reactions: parts.reactions.map((r) => reactionDict(r.reaction, r.user)),
    submessages: parts.submessages.map(submessageDict),
    sender_full_name: sender.full_name,
    sender_email: sender.email,
    sender_realm_str: realm.string_id,
    display_recipient: displayRecipient(recipient),
    type: isStream ? 'stream' : 'private',
    avatar_url: avatarUrl(sender, options.clientGravatar),
    content_type: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
  };
  if (recipient.type === RecipientType.STREAM) dict.stream_id = recipient.streamId;
  if (flags !== undefined) dict.flags = flagNames(flags);
  if (message.last_edit_time !== null) dict.last_edit_timestamp = message.last_edit_time;
  const history = visibleEditHistory(message.edit_history, realm.settings.message_edit_history_visibility_policy);
  if (history) dict.edit_history = history;
  return dict;
}
