// Folds events into a POST /register state, so that an earlier state plus the events
// published since equals a fresh fetch. Only the keys present in the state are touched.
import { isAdmin, isGuest, isModerator, isOwner } from '../lib/roles.js';
import { applyPersonalEvent, applySubscriptionUpdate } from './apply-personal.js';
import { applyDefaultStreams, applyStreamUpdate } from './apply-streams.js';
import { applyUpdateMessage } from './apply-update-message.js';
import { applyRealmEvent } from './apply-realm.js';
import { applyOwnIdentity, applySettingsEvent } from './apply-settings.js';
import type { InitialState } from './initial-state.js';
import { applyRealmBotEvent } from './state/bots.js';
import { applyLinkifierEvent, applyRealmDomainsEvent } from './state/linkifiers.js';
import { applyUserGroupEvent, dropDeactivatedMember } from './state/user-groups.js';
import { applyUserStatusEvent } from './state/user-status.js';
import { applyPresenceEvent } from './state/presence.js';
import { applyProfileDataUpdate, applyProfileFieldsEvent } from './state/profile-fields.js';
import {
  addUnread,
  normalizeUnread,
  type RecentConversation,
  sortRecent,
  type UnreadEntry,
  type UnreadMsgs,
} from './state/messages.js';

export interface ApplyOptions {
  /** The queue's owner. */
  userId: number;
  /** The owner's role (decides which subscriber lists stay visible after leaving a stream). */
  role: number;
  includeSubscribers: boolean;
  /** The state's presences are in the slim form. */
  slimPresence?: boolean;
}

type Dict = Record<string, any>;

/** Streams and subscriptions are listed by name, as initial-state builds them. */
const byName = (a: Dict, b: Dict) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned'];

export function applyEvents(state: InitialState, events: readonly Dict[], options: ApplyOptions): void {
  for (const event of events) applyEvent(state, event, options);
}

export function applyEvent(state: InitialState, event: Dict, options: ApplyOptions): void {
  switch (event.type) {
    case 'message':
      return applyMessage(state, event, options);
    case 'delete_message':
      return applyDeleteMessage(state, event);
    case 'update_message':
      return applyUpdateMessage(state, event);
    case 'update_message_flags':
      return applyFlags(state, event, options);
    case 'subscription':
      return applySubscription(state, event, options);
    case 'realm_user':
      dropDeactivatedMember(state, event);
      applyUserStatusEvent(state, event);
      applyProfileDataUpdate(state, event);
      return applyRealmUser(state, applyOwnIdentity(state, event, options.userId), options);
    case 'realm_bot':
      return applyRealmBotEvent(state, event);
    case 'custom_profile_fields':
      return applyProfileFieldsEvent(state, event);
    case 'user_group':
      return applyUserGroupEvent(state, event);
    case 'user_status':
      return applyUserStatusEvent(state, event);
    case 'realm':
      return applyRealmEvent(state, event, options.role);
    case 'user_settings':
    case 'update_display_settings':
    case 'update_global_notifications':
    case 'realm_user_settings_defaults':
      return applySettingsEvent(state, event);
    case 'stream':
      return event.op === 'update' ? applyStreamUpdate(state, event) : applyStream(state, event, options);
    case 'default_streams':
      return applyDefaultStreams(state, event);
    case 'realm_linkifiers':
    case 'realm_playgrounds':
      return applyLinkifierEvent(state, event);
    case 'realm_domains':
      return applyRealmDomainsEvent(state, event);
    case 'drafts':
    case 'scheduled_messages':
    case 'muted_users':
    case 'alert_words':
    case 'user_topic':
    case 'muted_topics':
      return applyPersonalEvent(state, event);
    case 'presence':
      return applyPresenceEvent(state, event, options.slimPresence ?? false);
    case 'realm_emoji':
      // The event carries the whole dict, deactivated emoji included.
      if ('realm_emoji' in state) state.realm_emoji = event.realm_emoji;
      return;
    default:
      return;
  }
}

function unreadEntry(message: Dict, mentioned: boolean, userId: number): UnreadEntry {
  if (message.type === 'stream') {
    return { id: message.id, mentioned, kind: 'stream', streamId: message.stream_id, topic: message.subject };
  }
  const people = (message.display_recipient as Array<{ id: number }>).map((p) => p.id);
  if (people.length <= 2) {
    const other = people.find((id) => id !== userId) ?? userId;
    return { id: message.id, mentioned, kind: 'pm', otherUserId: other };
  }
  return { id: message.id, mentioned, kind: 'huddle', userIdsString: [...people].sort((a, b) => a - b).join(',') };
}

function applyMessage(state: InitialState, event: Dict, options: ApplyOptions): void {
  const message = event.message as Dict;
  const flags = (event.flags ?? []) as string[];
  if (message.type === 'stream') {
    // A stream's first message is not announced separately: it arrives as this event.
    for (const list of [state.streams as Dict[] | undefined, ...streamLists(state)]) {
      const stream = list?.find((s) => s.stream_id === message.stream_id);
      if (stream && stream.first_message_id === null) stream.first_message_id = message.id;
    }
  }
  if (typeof state.max_message_id === 'number') state.max_message_id = Math.max(state.max_message_id, message.id);
  const unread = state.unread_msgs as UnreadMsgs | undefined;
  if (unread && !flags.includes('read')) {
    addUnread(unread, unreadEntry(message, flags.some((f) => MENTION_FLAGS.includes(f)), options.userId));
    normalizeUnread(unread);
  }
  if (Array.isArray(state.starred_messages) && flags.includes('starred')) addSorted(state.starred_messages as number[], [message.id]);
  const recent = state.recent_private_conversations as RecentConversation[] | undefined;
  if (recent && message.type === 'private') {
    const others = (message.display_recipient as Array<{ id: number }>)
      .map((p) => p.id)
      .filter((id) => id !== options.userId)
      .sort((a, b) => a - b);
    const key = others.join(',');
    const found = recent.find((c) => c.user_ids.join(',') === key);
    if (found) found.max_message_id = Math.max(found.max_message_id, message.id);
    else recent.push({ max_message_id: message.id, user_ids: others });
    sortRecent(recent);
  }
}

function removeUnread(unread: UnreadMsgs, ids: ReadonlySet<number>): void {
  for (const group of [...unread.pms, ...unread.streams, ...unread.huddles]) {
    group.unread_message_ids = group.unread_message_ids.filter((id) => !ids.has(id));
  }
  unread.mentions = unread.mentions.filter((id) => !ids.has(id));
  normalizeUnread(unread);
}

function applyDeleteMessage(state: InitialState, event: Dict): void {
  const ids = new Set<number>(event.message_ids ?? [event.message_id]);
  const unread = state.unread_msgs as UnreadMsgs | undefined;
  if (unread) removeUnread(unread, ids);
  if (Array.isArray(state.starred_messages)) {
    state.starred_messages = (state.starred_messages as number[]).filter((id) => !ids.has(id));
  }
}

function applyFlags(state: InitialState, event: Dict, options: ApplyOptions): void {
  const ids = (event.messages ?? []) as number[];
  const unread = state.unread_msgs as UnreadMsgs | undefined;
  if (event.flag === 'read' && unread) {
    if (event.op === 'add') {
      if (event.all) Object.assign(unread, { pms: [], streams: [], huddles: [], mentions: [], count: 0 });
      else removeUnread(unread, new Set(ids));
    } else {
      for (const id of ids) {
        const details = event.message_details?.[String(id)] as Dict | undefined;
        if (!details) continue;
        const mentioned = Boolean(details.mentioned);
        if (details.type === 'stream') {
          addUnread(unread, { id, mentioned, kind: 'stream', streamId: details.stream_id, topic: details.topic });
        } else if ((details.user_ids as number[]).length <= 1) {
          addUnread(unread, { id, mentioned, kind: 'pm', otherUserId: details.user_ids[0] ?? options.userId });
        } else {
          const everyone = [...details.user_ids, options.userId].sort((a: number, b: number) => a - b);
          addUnread(unread, { id, mentioned, kind: 'huddle', userIdsString: everyone.join(',') });
        }
      }
      normalizeUnread(unread);
    }
  }
  if (event.flag === 'starred' && Array.isArray(state.starred_messages)) {
    const starred = state.starred_messages as number[];
    if (event.op === 'add') addSorted(starred, ids);
    else state.starred_messages = starred.filter((id) => !ids.includes(id));
  }
}

function addSorted(list: number[], ids: readonly number[]): void {
  for (const id of ids) if (!list.includes(id)) list.push(id);
  list.sort((a, b) => a - b);
}

const SUBSCRIPTION_LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'] as const;

function streamLists(state: InitialState): Dict[][] {
  return SUBSCRIPTION_LISTS.map((key) => state[key] as Dict[] | undefined).filter((list): list is Dict[] => Array.isArray(list));
}

function takeStream(list: Dict[], streamId: number): Dict | undefined {
  const index = list.findIndex((s) => s.stream_id === streamId);
  return index === -1 ? undefined : list.splice(index, 1)[0];
}

function applySubscription(state: InitialState, event: Dict, options: ApplyOptions): void {
  const subscriptions = state.subscriptions as Dict[] | undefined;
  const unsubscribed = state.unsubscribed as Dict[] | undefined;
  const neverSubscribed = state.never_subscribed as Dict[] | undefined;
  switch (event.op) {
    case 'add': {
      if (!subscriptions) return;
      for (const sub of event.subscriptions as Dict[]) {
        takeStream(subscriptions, sub.stream_id);
        if (unsubscribed) takeStream(unsubscribed, sub.stream_id);
        if (neverSubscribed) takeStream(neverSubscribed, sub.stream_id);
        const dict = { ...sub };
        if (!options.includeSubscribers) delete dict.subscribers;
        subscriptions.push(dict);
      }
      subscriptions.sort(byName);
      return;
    }
    case 'remove': {
      if (!subscriptions) return;
      for (const { stream_id } of event.subscriptions as Dict[]) {
        const sub = takeStream(subscriptions, stream_id);
        if (!sub || !unsubscribed) continue;
        if (Array.isArray(sub.subscribers)) {
          const visible = !sub.invite_only || isAdmin({ role: options.role });
          sub.subscribers = visible ? sub.subscribers.filter((id: number) => id !== options.userId) : [];
        }
        unsubscribed.push(sub);
      }
      unsubscribed?.sort(byName);
      return;
    }
    case 'update':
      return applySubscriptionUpdate(state, event);
    case 'peer_add':
    case 'peer_remove': {
      const streamIds = new Set<number>(event.stream_ids);
      const userIds = event.user_ids as number[];
      for (const list of streamLists(state)) {
        for (const sub of list) {
          if (!streamIds.has(sub.stream_id) || !Array.isArray(sub.subscribers)) continue;
          const set = new Set<number>(sub.subscribers);
          for (const id of userIds) {
            if (event.op === 'peer_add') set.add(id);
            else set.delete(id);
          }
          sub.subscribers = [...set].sort((a, b) => a - b);
        }
      }
      return;
    }
    default:
      return;
  }
}

function applyStream(state: InitialState, event: Dict, options: ApplyOptions): void {
  const streams = event.streams as Dict[];
  if (event.op === 'create') {
    const list = state.streams as Dict[] | undefined;
    const neverSubscribed = state.never_subscribed as Dict[] | undefined;
    for (const stream of streams) {
      if (list && !list.some((s) => s.stream_id === stream.stream_id)) list.push({ ...stream });
      const known = streamLists(state).some((l) => l.some((s) => s.stream_id === stream.stream_id));
      if (neverSubscribed && !known) {
        const dict: Dict = { ...stream };
        if (options.includeSubscribers) dict.subscribers = [];
        neverSubscribed.push(dict);
      }
    }
    list?.sort(byName);
    neverSubscribed?.sort(byName);
  } else if (event.op === 'delete') {
    const gone = new Set(streams.map((s) => s.stream_id as number));
    for (const key of ['streams', ...SUBSCRIPTION_LISTS]) {
      const list = state[key] as Dict[] | undefined;
      if (Array.isArray(list)) state[key] = list.filter((s) => !gone.has(s.stream_id));
    }
  }
}

const ROLE_FLAGS = (role: number) => ({
  is_owner: isOwner({ role }),
  is_admin: isAdmin({ role }),
  is_moderator: isModerator({ role }),
  is_guest: isGuest({ role }),
});

function applyRealmUser(state: InitialState, event: Dict, options: ApplyOptions): void {
  const active = state.realm_users as Dict[] | undefined;
  const inactive = state.realm_non_active_users as Dict[] | undefined;
  const person = event.person as Dict;
  const byId = (a: Dict, b: Dict) => a.user_id - b.user_id;
  if (event.op === 'add') {
    if (active && !active.some((u) => u.user_id === person.user_id)) active.push({ ...person });
    active?.sort(byId);
    return;
  }
  if (event.op === 'remove') {
    if (active) state.realm_users = active.filter((u) => u.user_id !== person.user_id);
    return;
  }
  if (event.op !== 'update') return;
  if (active && inactive) {
    const from = active.find((u) => u.user_id === person.user_id) ?? inactive.find((u) => u.user_id === person.user_id);
    if (from) {
      const changes: Dict = { ...person };
      delete changes.custom_profile_field;
      if (typeof person.role === 'number') {
        // User objects carry no is_moderator: that flag is only the requester's own.
        const { is_moderator: _moderator, ...flags } = ROLE_FLAGS(person.role);
        Object.assign(changes, flags);
      }
      if ('new_email' in person) {
        changes.email = person.new_email;
        delete changes.new_email;
      }
      Object.assign(from, changes);
      if ('is_active' in person) {
        state.realm_users = active.filter((u) => u !== from);
        state.realm_non_active_users = inactive.filter((u) => u !== from);
        (person.is_active ? (state.realm_users as Dict[]) : (state.realm_non_active_users as Dict[])).push(from);
        (state.realm_users as Dict[]).sort(byId);
        (state.realm_non_active_users as Dict[]).sort(byId);
      }
    }
  }
  // Deactivated users drop out of every subscriber list; reactivation sends peer_add events.
  if (person.is_active === false) {
    for (const list of streamLists(state)) {
      for (const sub of list) {
        if (Array.isArray(sub.subscribers)) sub.subscribers = sub.subscribers.filter((id: number) => id !== person.user_id);
      }
    }
  }
  if (person.user_id === options.userId && 'user_id' in state) {
    if (typeof person.full_name === 'string') state.full_name = person.full_name;
    if (typeof person.role === 'number') Object.assign(state, ROLE_FLAGS(person.role));
  }
}
