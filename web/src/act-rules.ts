// What a person may do to a message (the realm's edit, move and delete policies and time limits
// from register, as the server enforces them), how an edited message is marked, and how its
// reactions are summarized. Pure functions, so they are tested without a browser.
import type { Message, Reaction } from './api.js';

/** The realm settings from register that decide who may edit, move and delete what, and until when. */
export interface RealmEditSettings {
  allow_message_editing: boolean;
  message_content_edit_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  edit_topic_policy: number;
  move_messages_between_streams_policy: number;
  delete_own_message_policy: number;
  message_edit_history_visibility_policy: 'all' | 'moves' | 'none';
  waiting_period_threshold: number;
}

export const EDIT_SETTING_NAMES = [
  'allow_message_editing',
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'edit_topic_policy',
  'move_messages_between_streams_policy',
  'delete_own_message_policy',
  'message_edit_history_visibility_policy',
  'waiting_period_threshold',
] as const satisfies readonly (keyof RealmEditSettings)[];

/** The person acting: role (100 owner … 600 guest) and when they joined (seconds). */
export interface Actor {
  user_id: number;
  role: number;
  date_joined: number;
}

/** The person using the client, as the model knows them. */
export const actorOf = (m: { me: { user_id: number }; myRole: number; myDateJoined: number }): Actor => ({ user_id: m.me.user_id, role: m.myRole, date_joined: m.myDateJoined });

const ROLE = { ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 };
const DAY = 86_400;

/** The era's integer policies: 1 members, 2 admins, 3 full members, 4 moderators, 5 everyone, 6 nobody. */
export function passesPolicy(actor: Actor, policy: number, waitingDays: number, now: number): boolean {
  switch (policy) {
    case 5:
      return true;
    case 1:
      return actor.role !== ROLE.GUEST;
    case 2:
      return actor.role <= ROLE.ADMINISTRATOR;
    case 4:
      return actor.role <= ROLE.MODERATOR;
    case 3:
      return actor.role !== ROLE.GUEST && !(actor.role === ROLE.MEMBER && now - actor.date_joined < waitingDays * DAY);
    default:
      return false;
  }
}

const withinLimit = (limit: number | null, sentAt: number, now: number) => limit === null || now - sentAt <= limit;

export interface AllowedActions {
  editContent: boolean;
  /** Change the topic in place (resolving included). */
  editTopic: boolean;
  /** Move to another stream. */
  moveStream: boolean;
  delete: boolean;
}

/**
 * What the actor may do to a message now. The server allows a little grace past each limit; the
 * client offers an action only within the limit itself, so what it offers always succeeds.
 */
export function allowedActions(msg: Message, actor: Actor, realm: RealmEditSettings, now: number): AllowedActions {
  const own = msg.sender_id === actor.user_id;
  const isStream = msg.type === 'stream';
  const exemptFromMoveLimits = actor.role <= ROLE.MODERATOR;
  const waiting = realm.waiting_period_threshold;
  const editContent = own && realm.allow_message_editing && withinLimit(realm.message_content_edit_limit_seconds, msg.timestamp, now);
  const editTopic =
    isStream &&
    passesPolicy(actor, realm.edit_topic_policy, waiting, now) &&
    (exemptFromMoveLimits || withinLimit(realm.move_messages_within_stream_limit_seconds, msg.timestamp, now));
  const moveStream =
    isStream &&
    passesPolicy(actor, realm.move_messages_between_streams_policy, waiting, now) &&
    (exemptFromMoveLimits || withinLimit(realm.move_messages_between_streams_limit_seconds, msg.timestamp, now));
  const mayDelete =
    actor.role <= ROLE.ADMINISTRATOR ||
    (own && passesPolicy(actor, realm.delete_own_message_policy, waiting, now) && withinLimit(realm.message_content_delete_limit_seconds, msg.timestamp, now));
  return { editContent, editTopic, moveStream, delete: mayDelete };
}

export const RESOLVED_PREFIX = '✔ ';

export const isResolved = (topic: string) => topic.startsWith(RESOLVED_PREFIX);

/** The topic with the resolved mark added, or removed (with any run of marks and spaces). */
export function toggleResolved(topic: string): string {
  return isResolved(topic) ? topic.replace(/^[✔ ]+/u, '') : RESOLVED_PREFIX + topic;
}

/** Whether a topic change only added or removed the resolved mark. */
function onlyResolveToggled(prevTopic: string, topic: string): boolean {
  return isResolved(prevTopic) !== isResolved(topic) && prevTopic.replace(/^[✔ ]+/u, '') === topic.replace(/^[✔ ]+/u, '');
}

/**
 * Zulip's mark beside an edited message: EDITED when its content changed, else MOVED when it
 * changed stream or topic (resolving a topic is not a move); a hidden history still says EDITED.
 */
export function editMark(msg: Pick<Message, 'edit_history' | 'last_edit_timestamp'>): 'EDITED' | 'MOVED' | null {
  const history = msg.edit_history;
  if (!history) return msg.last_edit_timestamp ? 'EDITED' : null;
  let moved = false;
  for (const entry of history) {
    if (entry.prev_content !== undefined || entry.prev_rendered_content !== undefined) return 'EDITED';
    if (entry.prev_stream !== undefined) moved = true;
    if (entry.prev_topic !== undefined && !onlyResolveToggled(entry.prev_topic, entry.topic ?? '')) moved = true;
  }
  return moved ? 'MOVED' : null;
}

export interface ReactionSummary {
  key: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: Reaction['reaction_type'];
  count: number;
  mine: boolean;
  /** Who reacted, as the tooltip says it. */
  title: string;
}

/** One entry per emoji, in the order each was first used, with its count and who used it. */
export function summarizeReactions(reactions: readonly Reaction[], myId: number, nameOf: (userId: number) => string): ReactionSummary[] {
  const byEmoji = new Map<string, { first: Reaction; users: number[] }>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const entry = byEmoji.get(key);
    if (entry) entry.users.push(r.user_id);
    else byEmoji.set(key, { first: r, users: [r.user_id] });
  }
  return [...byEmoji].map(([key, { first, users }]) => {
    const mine = users.includes(myId);
    const names = [...(mine ? ['You'] : []), ...users.filter((id) => id !== myId).map(nameOf)];
    const who = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
    return {
      key,
      emoji_name: first.emoji_name,
      emoji_code: first.emoji_code,
      reaction_type: first.reaction_type,
      count: users.length,
      mine,
      title: `${who} reacted with :${first.emoji_name}:`,
    };
  });
}

/** The characters of a Unicode emoji code ("1f44d" is 👍), or null for a code that is not one. */
export function emojiCharacters(code: string): string | null {
  if (!/^[0-9a-f]+(?:-[0-9a-f]+)*$/.test(code)) return null;
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  return points.every((p) => p <= 0x10ffff) ? String.fromCodePoint(...points) : null;
}

/**
 * The message's Zulip-style link: its conversation (stream and topic, or the other people of a
 * direct message, "-group" for several) followed by /near/ID.
 */
export function nearHash(msg: Message, myId: number, conversationHash: (streamId: number, topic: string) => string): string {
  if (msg.type === 'stream') return `${conversationHash(msg.stream_id!, msg.subject)}/near/${msg.id}`;
  const people = Array.isArray(msg.display_recipient) ? msg.display_recipient : [];
  const others = people.filter((p) => p.id !== myId);
  const shown = others.length > 0 ? others : people;
  const ids = shown.map((p) => p.id).sort((a, b) => a - b).join(',');
  const suffix = shown.length === 1 ? shown[0]!.full_name.replace(/[ "%/<>`\p{C}]+/gu, '-') : 'group';
  return `#narrow/dm/${ids}-${suffix}/near/${msg.id}`;
}
