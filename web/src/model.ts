// The client's picture of the organization: built from register state and kept current by folding
// events into it, the way the server's fold test describes (old state + events == fresh register).
// Plain data and functions, so it is tested without a browser; ui/ wraps it in a signal.
import type { Message, ZEvent } from './api.js';
import type { Narrow } from './narrow.js';
import { type ActState, actStateFromRegister, applyActEvent } from './message-fold.js';

export interface Stream {
  stream_id: number;
  name: string;
  color: string;
}

export interface Person {
  user_id: number;
  full_name: string;
  email: string;
}

export type UnreadInfo = { kind: 'stream'; streamId: number; topic: string; mentioned: boolean } | { kind: 'dm'; mentioned: boolean };

export interface Model extends ActState {
  me: Person;
  realmName: string;
  /** 1 automatic, 2 dark, 3 light, as user_settings.color_scheme has it. */
  colorScheme: number;
  streams: Map<number, Stream>;
  people: Map<number, Person>;
  unread: Map<number, UnreadInfo>;
  /** The messages fetched or received so far, by id. */
  messages: Map<number, Message>;
}

interface UnreadMsgs {
  streams?: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  pms?: { unread_message_ids: number[] }[];
  huddles?: { unread_message_ids: number[] }[];
  mentions?: number[];
}

/** The event and fetch types the client registers for. */
export const EVENT_TYPES = ['message', 'update_message_flags', 'update_message', 'delete_message', 'subscription', 'stream', 'realm_user', 'realm', 'user_settings', 'reaction', 'realm_emoji'];

export function fromRegister(state: Record<string, unknown>): Model {
  const subs = (state.subscriptions ?? []) as Stream[];
  const users = (state.realm_users ?? []) as Person[];
  const unreadMsgs = (state.unread_msgs ?? {}) as UnreadMsgs;
  const mentions = new Set(unreadMsgs.mentions ?? []);
  const unread = new Map<number, UnreadInfo>();
  for (const s of unreadMsgs.streams ?? []) {
    for (const id of s.unread_message_ids) unread.set(id, { kind: 'stream', streamId: s.stream_id, topic: s.topic, mentioned: mentions.has(id) });
  }
  for (const group of [...(unreadMsgs.pms ?? []), ...(unreadMsgs.huddles ?? [])]) {
    for (const id of group.unread_message_ids) unread.set(id, { kind: 'dm', mentioned: mentions.has(id) });
  }
  const settings = (state.user_settings ?? {}) as { color_scheme?: number };
  return {
    me: { user_id: Number(state.user_id), full_name: String(state.full_name ?? ''), email: String(state.email ?? '') },
    realmName: String(state.realm_name ?? ''),
    colorScheme: settings.color_scheme ?? 1,
    streams: new Map(subs.map((s) => [s.stream_id, { stream_id: s.stream_id, name: s.name, color: s.color }])),
    people: new Map(users.map((u) => [u.user_id, { user_id: u.user_id, full_name: u.full_name, email: u.email }])),
    unread,
    messages: new Map(),
    ...actStateFromRegister(state),
  };
}

function unreadInfo(message: Message, flags: string[]): UnreadInfo {
  const mentioned = flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned' || f === 'stream_wildcard_mentioned' || f === 'topic_wildcard_mentioned');
  return message.type === 'stream' ? { kind: 'stream', streamId: message.stream_id!, topic: message.subject, mentioned } : { kind: 'dm', mentioned };
}

/** Adds fetched messages, keeping what events already said about the ones it knows. */
export function addMessages(model: Model, messages: Message[]): void {
  for (const m of messages) if (!model.messages.has(m.id)) model.messages.set(m.id, m);
}

function setFlag(model: Model, ids: number[], flag: string, on: boolean): void {
  for (const id of ids) {
    const m = model.messages.get(id);
    if (!m) continue;
    const flags = m.flags.filter((f) => f !== flag);
    m.flags = on ? [...flags, flag] : flags;
  }
}

function applyFlags(model: Model, event: ZEvent): void {
  const ids = (event.messages ?? []) as number[];
  const on = event.op === 'add';
  setFlag(model, ids, String(event.flag), on);
  if (event.flag !== 'read') return;
  if (on && event.all === true) model.unread.clear();
  if (on) for (const id of ids) model.unread.delete(id);
  else {
    // Marking unread names each message's details, so the message need not be loaded.
    const details = (event.message_details ?? {}) as Record<string, { type: string; stream_id?: number; topic?: string; mentioned?: boolean }>;
    for (const id of ids) {
      const d = details[String(id)];
      if (!d) continue;
      model.unread.set(id, d.type === 'stream' ? { kind: 'stream', streamId: d.stream_id!, topic: d.topic ?? '', mentioned: !!d.mentioned } : { kind: 'dm', mentioned: !!d.mentioned });
    }
  }
}

function applyUpdateMessage(model: Model, event: ZEvent): void {
  const edited = model.messages.get(Number(event.message_id));
  if (edited && typeof event.rendered_content === 'string') {
    edited.content = event.rendered_content;
    edited.last_edit_timestamp = Number(event.edit_timestamp);
  }
  const topic = typeof event.subject === 'string' ? event.subject : undefined;
  const newStream = typeof event.new_stream_id === 'number' ? event.new_stream_id : undefined;
  if (topic === undefined && newStream === undefined) return;
  for (const id of (event.message_ids ?? []) as number[]) {
    const m = model.messages.get(id);
    if (m) {
      if (topic !== undefined) m.subject = topic;
      if (newStream !== undefined) m.stream_id = newStream;
    }
    const u = model.unread.get(id);
    if (u?.kind === 'stream') model.unread.set(id, { ...u, topic: topic ?? u.topic, streamId: newStream ?? u.streamId });
  }
}

export function applyEvent(model: Model, event: ZEvent): void {
  applyActEvent(model, event);
  switch (event.type) {
    case 'message': {
      const message = { ...(event.message as Message), flags: (event.flags ?? []) as string[] };
      model.messages.set(message.id, message);
      if (!message.flags.includes('read')) model.unread.set(message.id, unreadInfo(message, message.flags));
      return;
    }
    case 'update_message_flags':
      return applyFlags(model, event);
    case 'update_message':
      return applyUpdateMessage(model, event);
    case 'delete_message': {
      const ids = (event.message_ids as number[] | undefined) ?? [Number(event.message_id)];
      for (const id of ids) {
        model.messages.delete(id);
        model.unread.delete(id);
      }
      return;
    }
    case 'subscription':
      if (event.op === 'add') for (const s of event.subscriptions as Stream[]) model.streams.set(s.stream_id, { stream_id: s.stream_id, name: s.name, color: s.color });
      else if (event.op === 'remove') for (const s of event.subscriptions as Stream[]) model.streams.delete(s.stream_id);
      else if (event.op === 'update') {
        const s = model.streams.get(Number(event.stream_id));
        if (s && (event.property === 'color' || event.property === 'name')) s[event.property] = String(event.value);
      }
      return;
    case 'stream': {
      const s = model.streams.get(Number(event.stream_id));
      if (event.op === 'update' && s && event.property === 'name') s.name = String(event.value);
      return;
    }
    case 'realm_user': {
      const person = event.person as Partial<Person> & { user_id: number };
      if (event.op === 'add') model.people.set(person.user_id, { user_id: person.user_id, full_name: person.full_name ?? '', email: person.email ?? '' });
      else if (event.op === 'remove') model.people.delete(person.user_id);
      else if (event.op === 'update') {
        const p = model.people.get(person.user_id);
        if (p && typeof person.full_name === 'string') p.full_name = person.full_name;
        if (p && typeof person.email === 'string') p.email = person.email;
        if (person.user_id === model.me.user_id && typeof person.full_name === 'string') model.me.full_name = person.full_name;
      }
      return;
    }
    case 'realm':
      if (event.op === 'update' && event.property === 'name') model.realmName = String(event.value);
      if (event.op === 'update_dict' && typeof (event.data as { name?: unknown })?.name === 'string') model.realmName = (event.data as { name: string }).name;
      return;
    case 'user_settings':
      if (event.op === 'update' && event.property === 'color_scheme') model.colorScheme = Number(event.value);
      return;
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

export function unreadCounts(model: Model): UnreadCounts {
  const counts: UnreadCounts = { streams: new Map(), topics: new Map(), dms: 0, mentions: 0, total: model.unread.size };
  for (const info of model.unread.values()) {
    if (info.mentioned) counts.mentions += 1;
    if (info.kind === 'dm') counts.dms += 1;
    else {
      counts.streams.set(info.streamId, (counts.streams.get(info.streamId) ?? 0) + 1);
      const key = topicKey(info.streamId, info.topic);
      counts.topics.set(key, (counts.topics.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

export function matchesNarrow(narrow: Narrow, m: Message): boolean {
  switch (narrow.kind) {
    case 'all':
      return true;
    case 'mentioned':
      return m.flags.some((f) => f.endsWith('mentioned'));
    case 'starred':
      return m.flags.includes('starred');
    case 'dm':
      return m.type === 'private';
    case 'stream':
      return m.type === 'stream' && m.stream_id === narrow.streamId && (narrow.topic === undefined || m.subject.toLowerCase() === narrow.topic.toLowerCase());
  }
}

/** The loaded messages a narrow shows, oldest first. */
export function messagesIn(model: Model, narrow: Narrow): Message[] {
  return [...model.messages.values()].filter((m) => matchesNarrow(narrow, m)).sort((a, b) => a.id - b.id);
}
