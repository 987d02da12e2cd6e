// The unread messages the model keeps: where each one is (a stream's topic, or a direct-message
// conversation) and whether it mentions me, from register's unread_msgs and the events that change
// it; and the counts the sidebar shows.
import type { Message, ZEvent } from './api.js';
import { dmKey, messageDmKey } from './dm-conversations.js';

export type UnreadInfo =
  | { kind: 'stream'; streamId: number; topic: string; mentioned: boolean }
  /** `conversation` is the conversation's key (dmKey): the other people's ids, or mine alone. */
  | { kind: 'dm'; conversation: string; mentioned: boolean };

interface UnreadMsgs {
  streams?: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  /** `sender_id` is the field's name before feature level 119. */
  pms?: { other_user_id?: number; sender_id?: number; unread_message_ids: number[] }[];
  /** user_ids_string lists everyone, me included. */
  huddles?: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions?: number[];
}

export function unreadFromRegister(state: Record<string, unknown>, meId: number): Map<number, UnreadInfo> {
  const unreadMsgs = (state.unread_msgs ?? {}) as UnreadMsgs;
  const mentions = new Set(unreadMsgs.mentions ?? []);
  const unread = new Map<number, UnreadInfo>();
  for (const s of unreadMsgs.streams ?? []) {
    for (const id of s.unread_message_ids) unread.set(id, { kind: 'stream', streamId: s.stream_id, topic: s.topic, mentioned: mentions.has(id) });
  }
  const dms = [
    ...(unreadMsgs.pms ?? []).map((g) => ({ key: dmKey([Number(g.other_user_id ?? g.sender_id)], meId), ids: g.unread_message_ids })),
    ...(unreadMsgs.huddles ?? []).map((g) => ({ key: dmKey(g.user_ids_string.split(',').map(Number), meId), ids: g.unread_message_ids })),
  ];
  for (const { key, ids } of dms) {
    for (const id of ids) unread.set(id, { kind: 'dm', conversation: key, mentioned: mentions.has(id) });
  }
  return unread;
}

const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

export function unreadOfMessage(message: Message, flags: string[], meId: number): UnreadInfo {
  const mentioned = flags.some((f) => MENTION_FLAGS.includes(f));
  return message.type === 'stream'
    ? { kind: 'stream', streamId: message.stream_id!, topic: message.subject, mentioned }
    : { kind: 'dm', conversation: messageDmKey(message, meId), mentioned };
}

type UnreadDetail = { type: string; stream_id?: number; topic?: string; mentioned?: boolean; user_ids?: number[] };

/** A read flag change: marking read drops messages; marking unread names each one's details, so the message need not be loaded. */
export function applyReadFlag(unread: Map<number, UnreadInfo>, event: ZEvent, meId: number): void {
  const ids = (event.messages ?? []) as number[];
  if (event.op === 'add') {
    if (event.all === true) unread.clear();
    for (const id of ids) unread.delete(id);
    return;
  }
  const details = (event.message_details ?? {}) as Record<string, UnreadDetail>;
  for (const id of ids) {
    const d = details[String(id)];
    if (!d) continue;
    const mentioned = !!d.mentioned;
    // user_ids leaves me out, and is empty for a message to myself.
    unread.set(id, d.type === 'stream' ? { kind: 'stream', streamId: d.stream_id!, topic: d.topic ?? '', mentioned } : { kind: 'dm', conversation: dmKey(d.user_ids ?? [], meId), mentioned });
  }
}

export interface UnreadCounts {
  streams: Map<number, number>;
  /** Keyed by topicKey(stream, topic). */
  topics: Map<string, number>;
  dms: number;
  mentions: number;
  total: number;
}

/** Topics compare without regard to case, as the server's do. */
export const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;

export function unreadCounts({ unread }: { unread: Map<number, UnreadInfo> }): UnreadCounts {
  const counts: UnreadCounts = { streams: new Map(), topics: new Map(), dms: 0, mentions: 0, total: unread.size };
  const add = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const info of unread.values()) {
    if (info.mentioned) counts.mentions += 1;
    if (info.kind === 'dm') counts.dms += 1;
    else {
      add(counts.streams, info.streamId);
      add(counts.topics, topicKey(info.streamId, info.topic));
    }
  }
  return counts;
}
