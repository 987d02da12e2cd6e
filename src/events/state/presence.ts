// Folds `presence` events into the /register `presences`. Events are sent only for a user's
// first ping and for a user coming back online, so the event's one client describes the
// times just written: active means both timestamps are now, idle means only the connection is.
import type { InitialState } from '../initial-state.js';

type Dict = Record<string, any>;

/** A user's join time from the realm_users list, when the state has one (a never-active user's activity time). */
function joinedAt(state: InitialState, userId: number): number | undefined {
  const users = state.realm_users as Dict[] | undefined;
  const joined = users?.find((u) => u.user_id === userId)?.date_joined;
  return typeof joined === 'string' ? Math.floor(Date.parse(joined) / 1000) : undefined;
}

export function applyPresenceEvent(state: InitialState, event: Dict, slim: boolean): void {
  const presences = state.presences as Dict | undefined;
  if (!presences) return;
  const { status, timestamp } = event.presence.website as { status: 'active' | 'idle'; timestamp: number };
  if (slim) {
    const key = String(event.user_id);
    const before = presences[key] as Dict | undefined;
    const active = status === 'active' ? timestamp : (before?.active_timestamp ?? joinedAt(state, event.user_id) ?? timestamp);
    presences[key] = { active_timestamp: active, idle_timestamp: timestamp };
  } else {
    presences[event.email] = {
      website: { client: 'website', status, timestamp, pushable: false },
      aggregated: { client: 'website', status, timestamp },
    };
  }
  state.server_timestamp = event.server_timestamp;
}
