// The parts of the model that acting on messages needs, and how events keep them current:
// reactions, each edit's history entry and flags, the realm's edit rules and custom emoji, and
// the person's own role. model.ts calls in here, so each view updates live.
import { EDIT_SETTING_NAMES, type RealmEditSettings } from './act-rules.js';
import type { EditHistoryEntry, Reaction, ZEvent } from './api.js';
import type { Model } from './model.js';

/** A custom emoji of the organization, as register's realm_emoji lists it. */
export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

export interface ActState {
  editRules: RealmEditSettings;
  myRole: number;
  /** When I joined, in seconds (for the full-member policies). */
  myDateJoined: number;
  realmEmoji: Record<string, RealmEmoji>;
  /** Where the server's emoji names are (register's server_emoji_data_url). */
  emojiDataUrl: string;
}

export function actStateFromRegister(state: Record<string, unknown>): ActState {
  const rules: Record<string, unknown> = {};
  for (const name of EDIT_SETTING_NAMES) rules[name] = state[`realm_${name}`];
  const me = ((state.realm_users ?? []) as { user_id: number; role: number; date_joined: string }[]).find((u) => u.user_id === state.user_id);
  const emoji: Record<string, RealmEmoji> = {};
  for (const [id, e] of Object.entries((state.realm_emoji ?? {}) as Record<string, RealmEmoji>)) {
    emoji[id] = { id: e.id, name: e.name, source_url: e.source_url, deactivated: e.deactivated };
  }
  return {
    editRules: rules as unknown as RealmEditSettings,
    myRole: me?.role ?? 400,
    myDateJoined: me ? Math.floor(Date.parse(me.date_joined) / 1000) : 0,
    realmEmoji: emoji,
    emojiDataUrl: String(state.server_emoji_data_url ?? '/static/generated/emoji/emoji_api.json'),
  };
}

const sameEmoji = (a: Reaction, b: Record<string, unknown>) =>
  a.emoji_code === b.emoji_code && a.reaction_type === b.reaction_type && a.user_id === b.user_id;

function applyReaction(model: Model, event: ZEvent): void {
  const m = model.messages.get(Number(event.message_id));
  if (!m) return;
  const reactions = (m.reactions ?? []).filter((r) => !sameEmoji(r, event));
  if (event.op === 'add') {
    reactions.push({
      emoji_name: String(event.emoji_name),
      emoji_code: String(event.emoji_code),
      reaction_type: event.reaction_type as Reaction['reaction_type'],
      user_id: Number(event.user_id),
    });
  }
  m.reactions = reactions;
}

/**
 * The history entry the server recorded for an edit, as GET /messages would show it under the
 * realm's visibility policy: every moved message gets the move; the edited one also its old content.
 */
function historyEntry(event: ZEvent, withContent: boolean, policy: RealmEditSettings['message_edit_history_visibility_policy']): EditHistoryEntry | null {
  if (policy === 'none') return null;
  const entry: EditHistoryEntry = { user_id: event.user_id as number | null, timestamp: Number(event.edit_timestamp) };
  const contentChanged = withContent && typeof event.orig_content === 'string' && policy === 'all';
  if (contentChanged) Object.assign(entry, { prev_content: event.orig_content, prev_rendered_content: event.orig_rendered_content });
  const moved = typeof event.new_stream_id === 'number' || typeof event.subject === 'string';
  if (typeof event.new_stream_id === 'number') Object.assign(entry, { prev_stream: event.stream_id, stream: event.new_stream_id });
  if (typeof event.subject === 'string') Object.assign(entry, { prev_topic: event.orig_subject, topic: event.subject });
  return contentChanged || moved ? entry : null;
}

function recordEdit(model: Model, event: ZEvent): void {
  if (event.rendering_only === true) return;
  const editedId = Number(event.message_id);
  const ids = (event.message_ids as number[] | undefined) ?? [editedId];
  for (const id of ids) {
    const m = model.messages.get(id);
    if (!m) continue;
    m.last_edit_timestamp = Number(event.edit_timestamp);
    const entry = historyEntry(event, id === editedId, model.editRules.message_edit_history_visibility_policy);
    if (entry) m.edit_history = [entry, ...(m.edit_history ?? [])];
  }
  // A content edit may add or remove a mention of me; the event carries my flags afterwards.
  const edited = model.messages.get(editedId);
  if (typeof event.rendered_content === 'string' && Array.isArray(event.flags)) {
    const flags = event.flags as string[];
    if (edited) edited.flags = flags;
    const unread = model.unread.get(editedId);
    if (unread) unread.mentioned = flags.some((f) => f.endsWith('mentioned'));
  }
}

function applyRealmRules(model: Model, event: ZEvent): void {
  const changes: Record<string, unknown> =
    event.op === 'update' ? { [String(event.property)]: event.value } : event.op === 'update_dict' ? ((event.data ?? {}) as Record<string, unknown>) : {};
  for (const [name, value] of Object.entries(changes)) {
    if ((EDIT_SETTING_NAMES as readonly string[]).includes(name)) (model.editRules as unknown as Record<string, unknown>)[name] = value;
  }
}

/** Folds the events this file's state follows; model.ts folds the rest. */
export function applyActEvent(model: Model, event: ZEvent): void {
  switch (event.type) {
    case 'reaction':
      return applyReaction(model, event);
    case 'update_message':
      return recordEdit(model, event);
    case 'realm':
      return applyRealmRules(model, event);
    case 'realm_user': {
      const person = event.person as { user_id: number; role?: number };
      if (event.op === 'update' && person.user_id === model.me.user_id && typeof person.role === 'number') model.myRole = person.role;
      return;
    }
    case 'realm_emoji':
      if (event.op === 'update') model.realmEmoji = actStateFromRegister({ realm_emoji: event.realm_emoji }).realmEmoji;
      return;
  }
}
