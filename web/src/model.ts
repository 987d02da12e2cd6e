// The client's picture of the organization: built from register state and kept current by folding
// events into it, the way the server's fold test describes (old state + events == fresh register).
// Plain data and functions, so it is tested without a browser; ui/ wraps it in a signal.
import type { Message, ZEvent } from './api.js';
import type { Narrow } from './narrow.js';
import { isConversationWith, matchesTerms } from './narrow-match.js';
import { applyPresence, applyUserStatus } from './presence.js';
import { removeLocalEcho } from './compose-echo.js';
import { type ActState, actStateFromRegister, applyActEvent } from './message-fold.js';
import { noteDm, recentDmsFromRegister } from './dm-conversations.js';
import { applyReadFlag, type UnreadInfo, unreadFromRegister, unreadOfMessage } from './unread.js';

export { topicKey, type UnreadCounts, type UnreadInfo, unreadCounts } from './unread.js';

export interface Stream {
  stream_id: number;
  name: string;
  color: string;
}

export interface Person {
  user_id: number;
  full_name: string;
  email: string;
  avatar_url?: string | null;
  is_bot?: boolean;
  /** When they joined (ISO), the activity time of someone never active. */
  date_joined?: string;
}

/** A person's last activity and last connection, in seconds (slim presence). */
export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** What a person's status shows (the register's user_status entry). */
export interface UserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface Model extends ActState {
  me: Person;
  realmName: string;
  /** 1 automatic, 2 dark, 3 light, as user_settings.color_scheme has it. */
  colorScheme: number;
  streams: Map<number, Stream>;
  people: Map<number, Person>;
  unread: Map<number, UnreadInfo>;
  /** Recent direct-message conversations by key (dmKey), with the newest message id of each. */
  recentDms: Map<string, number>;
  /** The messages fetched or received so far, by id. */
  messages: Map<number, Message>;
  realmIcon: string;
  presences: Map<number, Presence>;
  userStatus: Map<number, UserStatus>;
  /** user_settings.enter_sends: whether Enter (rather than Ctrl+Enter) sends. */
  enterSends: boolean;
  /** The typing notification timings from register, in milliseconds. */
  typing: TypingPeriods;
  /** The user's drafts (the drafts API), by id. */
  drafts: Map<number, DraftDict>;
}

export interface TypingPeriods {
  startedWait: number;
  stoppedWait: number;
  startedExpiry: number;
}

/** A draft as GET /drafts, register and drafts events carry it. */
export interface DraftDict {
  id: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** The event types the client registers for. */
export const EVENT_TYPES = ['message', 'update_message_flags', 'update_message', 'delete_message', 'subscription', 'stream', 'realm_user', 'realm', 'user_settings', 'presence', 'user_status', 'drafts', 'typing', 'reaction', 'realm_emoji'];
/** The register state it fetches: the state of those events, and the recent direct-message conversations (which message events keep current). */
export const FETCH_TYPES = [...EVENT_TYPES, 'recent_private_conversations'];

/** A person as the model keeps them, from a realm_users entry or a realm_user event. */
function personOf(u: Partial<Person> & { user_id: number }): Person {
  return { user_id: u.user_id, full_name: u.full_name ?? '', email: u.email ?? '', avatar_url: u.avatar_url ?? null, is_bot: u.is_bot ?? false, date_joined: u.date_joined ?? '' };
}

function presencesOf(state: Record<string, unknown>): Map<number, Presence> {
  const slim = (state.presences ?? {}) as Record<string, Presence>;
  return new Map(Object.entries(slim).map(([id, p]) => [Number(id), { active_timestamp: p.active_timestamp, idle_timestamp: p.idle_timestamp }]));
}

export function fromRegister(state: Record<string, unknown>): Model {
  const subs = (state.subscriptions ?? []) as Stream[];
  const users = (state.realm_users ?? []) as Person[];
  const meId = Number(state.user_id);
  const settings = (state.user_settings ?? {}) as { color_scheme?: number; enter_sends?: boolean };
  return {
    me: { user_id: meId, full_name: String(state.full_name ?? ''), email: String(state.email ?? '') },
    realmName: String(state.realm_name ?? ''),
    colorScheme: settings.color_scheme ?? 1,
    streams: new Map(subs.map((s) => [s.stream_id, { stream_id: s.stream_id, name: s.name, color: s.color }])),
    people: new Map(users.map((u) => [u.user_id, personOf(u)])),
    unread: unreadFromRegister(state, meId),
    recentDms: recentDmsFromRegister(state, meId),
    messages: new Map(),
    realmIcon: String(state.realm_icon_url ?? ''),
    presences: presencesOf(state),
    userStatus: new Map(Object.entries((state.user_status ?? {}) as Record<string, UserStatus>).map(([id, st]) => [Number(id), { ...st }])),
    enterSends: settings.enter_sends ?? false,
    typing: {
      startedWait: Number(state.server_typing_started_wait_period_milliseconds ?? 10_000),
      stoppedWait: Number(state.server_typing_stopped_wait_period_milliseconds ?? 5000),
      startedExpiry: Number(state.server_typing_started_expiry_period_milliseconds ?? 15_000),
    },
    drafts: new Map(((state.drafts ?? []) as DraftDict[]).map((d) => [d.id, d])),
    ...actStateFromRegister(state),
  };
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
  if (event.flag === 'read') applyReadFlag(model.unread, event, model.me.user_id);
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
      // The sender's own message replaces its local echo in the same change: no duplicate, no flicker.
      if (typeof event.local_message_id === 'string') removeLocalEcho(model, event.local_message_id);
      model.messages.set(message.id, message);
      if (!message.flags.includes('read')) model.unread.set(message.id, unreadOfMessage(message, message.flags, model.me.user_id));
      if (message.type === 'private') noteDm(model.recentDms, message, model.me.user_id);
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
      if (event.op === 'add') model.people.set(person.user_id, personOf(person));
      else if (event.op === 'remove') model.people.delete(person.user_id);
      else if (event.op === 'update') {
        const p = model.people.get(person.user_id);
        if (p && typeof person.full_name === 'string') p.full_name = person.full_name;
        if (p && typeof person.email === 'string') p.email = person.email;
        if (person.user_id === model.me.user_id && typeof person.full_name === 'string') model.me.full_name = person.full_name;
        if (p && 'avatar_url' in person) p.avatar_url = person.avatar_url ?? null;
        if ((person as { is_active?: boolean }).is_active === false) {
          model.people.delete(person.user_id);
          model.userStatus.delete(person.user_id);
        }
      }
      return;
    }
    case 'realm':
      if (event.op === 'update' && event.property === 'name') model.realmName = String(event.value);
      if (event.op === 'update_dict' && typeof (event.data as { name?: unknown })?.name === 'string') model.realmName = (event.data as { name: string }).name;
      if (event.op === 'update_dict' && typeof (event.data as { icon_url?: unknown })?.icon_url === 'string') model.realmIcon = (event.data as { icon_url: string }).icon_url;
      return;
    case 'presence':
      return applyPresence(model, event);
    case 'user_status':
      return applyUserStatus(model, event);
    case 'user_settings':
      if (event.op === 'update' && event.property === 'color_scheme') model.colorScheme = Number(event.value);
      if (event.op === 'update' && event.property === 'enter_sends') model.enterSends = event.value === true;
      return;
    case 'drafts':
      if (event.op === 'add') for (const d of event.drafts as DraftDict[]) model.drafts.set(d.id, d);
      else if (event.op === 'update') model.drafts.set((event.draft as DraftDict).id, event.draft as DraftDict);
      else if (event.op === 'remove') model.drafts.delete(Number(event.draft_id));
      return;
  }
}

export function matchesNarrow(narrow: Narrow, m: Message, meId = 0): boolean {
  switch (narrow.kind) {
    case 'all':
      return true;
    case 'mentioned':
      return m.flags.some((f) => f.endsWith('mentioned'));
    case 'starred':
      return m.flags.includes('starred');
    case 'dm':
      return m.type === 'private' && (narrow.userIds === undefined || isConversationWith(m, narrow.userIds, meId));
    case 'stream':
      return m.type === 'stream' && m.stream_id === narrow.streamId && (narrow.topic === undefined || m.subject.toLowerCase() === narrow.topic.toLowerCase());
    case 'search':
      return matchesTerms(narrow, m, meId);
  }
}

/** The loaded messages a narrow shows, oldest first. */
export function messagesIn(model: Model, narrow: Narrow): Message[] {
  return [...model.messages.values()].filter((m) => matchesNarrow(narrow, m, model.me.user_id)).sort((a, b) => a.id - b.id);
}

