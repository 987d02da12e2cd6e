// Presence rules: when a ping is worth a write, when it is worth an event, and the two wire
// forms (slim, keyed by user id; legacy, keyed by email with one "website" client). Timings
// are the reference server's at feature level 229. All times are integer UNIX seconds.

/** How often clients should ping (announced at /register). */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
/** How old a timestamp may be before clients show the user offline (announced at /register). */
export const OFFLINE_THRESHOLD_SECONDS = 140;
/** A timestamp moves only when it is older than this: pings from several open clients collapse. */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** A user not active for this long is announced as coming online when they become active again. */
export const BECAME_ONLINE_AFTER_SECONDS = OFFLINE_THRESHOLD_SECONDS - PRESENCE_PING_INTERVAL_SECONDS - 10;
/** Events call a user active when their last activity is at most this much older than their last connection. */
const LEGACY_EVENT_ACTIVITY_OFFSET_SECONDS = 70;
/** Reads call a user idle once their last activity is this old. */
const LEGACY_IDLE_AFTER_SECONDS = 120;
/** Rows not connected for this long are left out of realm-wide reads. */
export const PRESENCE_HISTORY_SECONDS = 14 * 24 * 3600;
/** Beyond this many active users, nobody is told at once of someone coming online (they see it at their next ping). */
export const PRESENCE_EVENT_USER_LIMIT = 100;

export interface PresenceTimes {
  /** Null until the user is first active. */
  lastActive: number | null;
  lastConnected: number;
}

export interface PresencePlan {
  /** The row to write, or null when nothing moved. */
  write: PresenceTimes | null;
  /** Whether the others should hear of it now (a first row, or a user coming back online). */
  announce: boolean;
}

/** What a ping (`active` or idle) at `now` does to the stored times (null: no row yet). */
export function planPresenceUpdate(stored: PresenceTimes | null, now: number, active: boolean): PresencePlan {
  if (stored === null) return { write: { lastActive: active ? now : null, lastConnected: now }, announce: true };
  const sinceActive = stored.lastActive === null ? Infinity : now - stored.lastActive;
  const sinceConnected = now - stored.lastConnected;
  const next = { ...stored };
  if (sinceConnected > PRESENCE_UPDATE_MIN_FREQ_SECONDS) next.lastConnected = now;
  if (active && sinceActive > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    next.lastActive = now;
    next.lastConnected = Math.max(next.lastConnected, now);
  }
  const moved = next.lastActive !== stored.lastActive || next.lastConnected !== stored.lastConnected;
  return { write: moved ? next : null, announce: active && sinceActive > BECAME_ONLINE_AFTER_SECONDS };
}

export interface LegacyClientPresence {
  client: 'website';
  status: 'active' | 'idle';
  timestamp: number;
  pushable: false;
}

/** The one-client form events carry, describing times that were just written. */
export function eventPresence(times: PresenceTimes, dateJoined: number): LegacyClientPresence {
  const active = times.lastActive ?? dateJoined;
  const isActive = active + LEGACY_EVENT_ACTIVITY_OFFSET_SECONDS >= times.lastConnected;
  return { client: 'website', status: isActive ? 'active' : 'idle', timestamp: isActive ? active : times.lastConnected, pushable: false };
}

export interface SlimPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export function slimPresence(times: PresenceTimes, dateJoined: number): SlimPresence {
  return { active_timestamp: times.lastActive ?? dateJoined, idle_timestamp: times.lastConnected };
}

export interface LegacyPresence {
  website: LegacyClientPresence;
  aggregated: { client: 'website'; status: 'active' | 'idle'; timestamp: number };
}

/** The legacy read form at `now`: active while the last activity is recent, else idle since the last connection. */
export function legacyPresence(times: PresenceTimes, dateJoined: number, now: number): LegacyPresence {
  const active = times.lastActive ?? dateJoined;
  const idle = now - active > LEGACY_IDLE_AFTER_SECONDS;
  const status = idle ? 'idle' : 'active';
  const timestamp = idle ? times.lastConnected : active;
  return { website: { client: 'website', status, timestamp, pushable: false }, aggregated: { client: 'website', status, timestamp } };
}

export interface KeyedPresence extends PresenceTimes {
  userId: number;
  email: string;
  dateJoined: number;
}

/** The `presences` object of /register and the presence routes, in the form the client asked for. */
export function presencesDict(entries: Iterable<KeyedPresence>, slim: boolean, now: number): Record<string, SlimPresence | LegacyPresence> {
  const out: Record<string, SlimPresence | LegacyPresence> = {};
  for (const entry of entries) {
    if (slim) out[String(entry.userId)] = slimPresence(entry, entry.dateJoined);
    else out[entry.email] = legacyPresence(entry, entry.dateJoined, now);
  }
  return out;
}
