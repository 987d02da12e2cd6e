// Folds update_message events into a POST /register state: unread messages that moved change
// stream and/or topic, and a content edit can add or remove the edited message's mention.
import type { InitialState } from './initial-state.js';
import { addUnread, normalizeUnread, type UnreadMsgs } from './state/messages.js';

type Dict = Record<string, any>;

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned'];

function isUnread(unread: UnreadMsgs, id: number): boolean {
  return [...unread.streams, ...unread.pms, ...unread.huddles].some((g) => g.unread_message_ids.includes(id));
}

/** Regroups moved unread messages under their new stream and topic. */
function moveUnread(unread: UnreadMsgs, ids: ReadonlySet<number>, newStreamId: number | undefined, newTopic: string | undefined): void {
  const moved: Array<{ id: number; streamId: number; topic: string }> = [];
  for (const group of unread.streams) {
    const keep: number[] = [];
    for (const id of group.unread_message_ids) {
      if (ids.has(id)) moved.push({ id, streamId: newStreamId ?? group.stream_id, topic: newTopic ?? group.topic });
      else keep.push(id);
    }
    group.unread_message_ids = keep;
  }
  const mentions = new Set(unread.mentions);
  for (const m of moved) addUnread(unread, { id: m.id, mentioned: mentions.has(m.id), kind: 'stream', streamId: m.streamId, topic: m.topic });
  normalizeUnread(unread);
  // A group is named after its oldest unread message's topic, as a fresh fetch names it.
  const byId = new Map(moved.map((m) => [m.id, m.topic]));
  for (const group of unread.streams) {
    const first = group.unread_message_ids[0];
    if (first !== undefined && byId.has(first)) group.topic = byId.get(first)!;
  }
}

export function applyUpdateMessage(state: InitialState, event: Dict): void {
  const unread = state.unread_msgs as UnreadMsgs | undefined;
  if (!unread) return;
  const id = event.message_id as number;
  if ('rendered_content' in event && isUnread(unread, id)) {
    const mentioned = (event.flags as string[]).some((f) => MENTION_FLAGS.includes(f));
    unread.mentions = unread.mentions.filter((m) => m !== id);
    if (mentioned) unread.mentions.push(id);
    normalizeUnread(unread);
  }
  if ('new_stream_id' in event || 'subject' in event) {
    moveUnread(unread, new Set(event.message_ids as number[]), event.new_stream_id, event.subject);
  }
}
