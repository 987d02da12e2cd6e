// What the message actions do through the API. The views change nothing themselves: the server's
// events (reaction, update_message, update_message_flags, delete_message) update the model.
import type { Reaction } from './api.js';
import { api, status } from './store.js';

export type EmojiChoice = Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>;

export function report(error: unknown): void {
  status.value = (error as Error).message;
}

/** Adds my reaction, or removes it when I already reacted with that emoji. */
export async function toggleReaction(messageId: number, emoji: EmojiChoice, mine: boolean): Promise<void> {
  const params = { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type };
  try {
    await (mine ? api.removeReaction(messageId, params) : api.addReaction(messageId, params));
  } catch (error) {
    report(error);
  }
}

export async function setStarred(messageId: number, starred: boolean): Promise<void> {
  await api.setFlag([messageId], 'starred', starred).catch(report);
}

/** The message as its sender wrote it (Markdown), for the inline editor. */
export async function rawContent(messageId: number): Promise<string> {
  const { raw_content } = await api.call<{ raw_content: string }>('GET', `/messages/${messageId}`, { apply_markdown: false });
  return raw_content;
}

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface MessageChange {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode?: PropagateMode;
  notifyOld?: boolean;
  notifyNew?: boolean;
}

/** One PATCH /messages/{id}; throws the server's error for the caller to show. */
export async function changeMessage(messageId: number, change: MessageChange): Promise<void> {
  const params: Record<string, string | boolean> = {};
  if (change.content !== undefined) params.content = change.content;
  if (change.topic !== undefined) params.topic = change.topic;
  if (change.streamId !== undefined) params.stream_id = String(change.streamId);
  if (change.topic !== undefined || change.streamId !== undefined) {
    params.propagate_mode = change.propagateMode ?? 'change_one';
    if (change.notifyOld !== undefined) params.send_notification_to_old_thread = change.notifyOld;
    if (change.notifyNew !== undefined) params.send_notification_to_new_thread = change.notifyNew;
  }
  await api.updateMessage(messageId, params);
}
