// Direct-message conversations: the key each goes by, the recent ones (register's
// recent_private_conversations, kept current by message events), and the list the left sidebar
// shows, newest first, with unread counts.
import type { Message } from './api.js';
import type { Model } from './model.js';
import { recipientIds } from './narrow-match.js';

/**
 * A conversation's key, as Zulip's user_ids_string: the other people's ids sorted and joined by
 * commas, or one's own id alone for the conversation with oneself. It is also the `dm/` narrow's operand.
 */
export function dmKey(userIds: Iterable<number>, meId: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== meId).sort((a, b) => a - b);
  return (others.length === 0 ? [meId] : others).join(',');
}

export const keyUserIds = (key: string): number[] => key.split(',').map(Number);

/** The conversation a direct message belongs to, from the viewer's side. */
export const messageDmKey = (message: Message, meId: number): string => dmKey(recipientIds(message), meId);

/** Register's recent conversations, by key, with the newest message id of each. */
export function recentDmsFromRegister(state: Record<string, unknown>, meId: number): Map<string, number> {
  const recent = (state.recent_private_conversations ?? []) as { user_ids: number[]; max_message_id: number }[];
  return new Map(recent.map((c) => [dmKey(c.user_ids, meId), c.max_message_id]));
}

/** A direct message makes its conversation the most recent (unless a newer one is known). */
export function noteDm(recent: Map<string, number>, message: Message, meId: number): void {
  const key = messageDmKey(message, meId);
  recent.set(key, Math.max(recent.get(key) ?? 0, message.id));
}

export interface DmConversation {
  key: string;
  userIds: number[];
  /** The newest message known in it: recent ones by their newest message, others by their newest unread. */
  maxId: number;
  unread: number;
}

/** Every known conversation, recent ones and those with unread messages, newest first. */
export function dmConversations(model: Model): DmConversation[] {
  const byKey = new Map<string, DmConversation>();
  const entry = (key: string) => {
    let c = byKey.get(key);
    if (!c) byKey.set(key, (c = { key, userIds: keyUserIds(key), maxId: 0, unread: 0 }));
    return c;
  };
  for (const [key, maxId] of model.recentDms) entry(key).maxId = maxId;
  for (const [id, info] of model.unread) {
    if (info.kind !== 'dm') continue;
    const c = entry(info.conversation);
    c.unread += 1;
    c.maxId = Math.max(c.maxId, id);
  }
  return [...byKey.values()].sort((a, b) => b.maxId - a.maxId);
}

/**
 * The conversation `p` opens: the first with unread messages after the open one in the list's
 * order (newest first), wrapping around to the top; never the open one itself. Zulip's order too.
 */
export function nextUnreadConversation(conversations: readonly DmConversation[], currentKey: string | undefined): DmConversation | null {
  const at = currentKey === undefined ? -1 : conversations.findIndex((c) => c.key === currentKey);
  const order = [...conversations.slice(at + 1), ...conversations.slice(0, Math.max(0, at))];
  return order.find((c) => c.unread > 0) ?? null;
}

/**
 * What the sidebar lists: the `recent` newest conversations, any others with unread messages, and
 * the open one; everything when `all`.
 */
export function listedConversations(conversations: readonly DmConversation[], openKey: string | undefined, recent: number, all: boolean): DmConversation[] {
  if (all) return [...conversations];
  return conversations.filter((c, i) => i < recent || c.unread > 0 || c.key === openKey);
}

/** The people's names for the sidebar, by name; "You" for the conversation with oneself. */
export function conversationName(model: Model, userIds: readonly number[]): string {
  if (userIds.length === 1 && userIds[0] === model.me.user_id) return 'You';
  return userIds
    .map((id) => model.people.get(id)?.full_name ?? nameInMessages(model, id) ?? 'Unknown user')
    .sort((a, b) => a.localeCompare(b))
    .join(', ');
}

/** People who left (and so are not in the people list) are still named in the messages they were in. */
function nameInMessages(model: Model, userId: number): string | undefined {
  for (const m of model.messages.values()) {
    if (!Array.isArray(m.display_recipient)) continue;
    const found = m.display_recipient.find((p) => p.id === userId);
    if (found) return found.full_name;
  }
  return undefined;
}
