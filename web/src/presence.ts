// People's presence and status: folding their events into the model, and what the people list shows
// (active, idle or offline, and an order that puts the people one can talk to now first).
import type { ZEvent } from './api.js';
import type { Model, Person, Presence, UserStatus } from './model.js';

/**
 * A presence event comes for a first ping or a return after being offline; its one client's
 * timestamp is now: both times when active, only the connection when idle.
 */
export function applyPresence(model: Model, event: ZEvent): void {
  const userId = Number(event.user_id);
  const website = (event.presence as Record<string, { status: string; timestamp: number }> | undefined)?.website;
  if (!website) return;
  const before = model.presences.get(userId);
  const joined = model.people.get(userId)?.date_joined;
  const neverActive = joined ? Math.floor(Date.parse(joined) / 1000) : website.timestamp;
  const active = website.status === 'active' ? website.timestamp : (before?.active_timestamp ?? neverActive);
  model.presences.set(userId, { active_timestamp: active, idle_timestamp: website.timestamp });
}

/** A user_status event sets the fields it names; an emptied status is dropped, as register omits it. */
export function applyUserStatus(model: Model, event: ZEvent): void {
  const userId = Number(event.user_id);
  const status: Record<string, unknown> = { ...model.userStatus.get(userId) };
  const set = (key: string, value: unknown) => (value === '' ? delete status[key] : (status[key] = value));
  if (typeof event.away === 'boolean') set('away', event.away ? true : '');
  if (typeof event.status_text === 'string') set('status_text', event.status_text);
  if (typeof event.emoji_name === 'string') {
    set('emoji_name', event.emoji_name);
    set('emoji_code', event.emoji_code ?? '');
    if (event.emoji_name === '' && (event.reaction_type ?? 'unicode_emoji') === 'unicode_emoji') delete status.reaction_type;
    else status.reaction_type = event.reaction_type;
  }
  if (Object.keys(status).length === 0) model.userStatus.delete(userId);
  else model.userStatus.set(userId, status as UserStatus);
}

/** Past this many seconds without a ping a person is offline (the server's threshold). */
export const OFFLINE_AFTER_SECONDS = 140;
/** How often the client reports its own presence. */
export const PING_INTERVAL_MS = 60_000;

export type PresenceState = 'active' | 'idle' | 'offline';

export function presenceState(presence: Presence | undefined, nowSeconds: number): PresenceState {
  if (!presence) return 'offline';
  if (nowSeconds - presence.active_timestamp <= OFFLINE_AFTER_SECONDS) return 'active';
  if (nowSeconds - presence.idle_timestamp <= OFFLINE_AFTER_SECONDS) return 'idle';
  return 'offline';
}

export interface PersonRow {
  person: Person;
  presence: PresenceState;
  status?: UserStatus;
}

const RANK: Record<PresenceState, number> = { active: 0, idle: 1, offline: 2 };

/** The people list: oneself first, then active, idle and offline people, each by name; no bots. */
export function peopleRows(model: Model, nowSeconds: number): PersonRow[] {
  const rows = [...model.people.values()]
    .filter((p) => !p.is_bot)
    .map((person) => ({ person, presence: presenceState(model.presences.get(person.user_id), nowSeconds), status: model.userStatus.get(person.user_id) }));
  const me = model.me.user_id;
  return rows.sort(
    (a, b) =>
      Number(b.person.user_id === me) - Number(a.person.user_id === me) ||
      RANK[a.presence] - RANK[b.presence] ||
      a.person.full_name.localeCompare(b.person.full_name),
  );
}

/** Presences from a ping's answer (slim form), which says more than events do: replaces them all. */
export function takePresences(model: Model, presences: Record<string, Presence>): void {
  model.presences = new Map(Object.entries(presences).map(([id, p]) => [Number(id), { active_timestamp: p.active_timestamp, idle_timestamp: p.idle_timestamp }]));
}

/** A unicode status emoji from its code points ("1f3e0" or "1f469-200d-1f4bb"). */
export function statusEmoji(status: UserStatus | undefined): string {
  if (!status?.emoji_code || (status.reaction_type ?? 'unicode_emoji') !== 'unicode_emoji') return '';
  try {
    return String.fromCodePoint(...status.emoji_code.split('-').map((hex) => Number.parseInt(hex, 16)));
  } catch {
    return '';
  }
}
