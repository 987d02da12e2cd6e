// Reads of user_presence, joined with the users they describe.
import type { DbOrTx } from '../db/schema.js';
import { PRESENCE_HISTORY_SECONDS, type PresenceTimes } from '../lib/presence.js';
import { resolveSettings } from '../lib/settings-registry.js';

export interface PresenceEntry extends PresenceTimes {
  userId: number;
  email: string;
  dateJoined: number;
}

function presenceTimes(row: { last_active_time: number | string | null; last_connected_time: number | string }): PresenceTimes {
  return { lastActive: row.last_active_time === null ? null : Number(row.last_active_time), lastConnected: Number(row.last_connected_time) };
}

export async function presenceTimesOf(db: DbOrTx, userId: number): Promise<PresenceTimes | null> {
  const row = await db
    .selectFrom('user_presence')
    .select(['last_active_time', 'last_connected_time'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? presenceTimes(row) : null;
}

/**
 * Presence of the realm's active human users connected in the last two weeks, by user id.
 * Users who turned presence off are left out, so they show as offline.
 */
export async function realmPresence(db: DbOrTx, realmId: number, now: number, userId?: number): Promise<PresenceEntry[]> {
  let query = db
    .selectFrom('user_presence')
    .innerJoin('user_profile', 'user_profile.id', 'user_presence.user_id')
    .select([
      'user_presence.user_id',
      'user_presence.last_active_time',
      'user_presence.last_connected_time',
      'user_profile.email',
      'user_profile.date_joined',
      'user_profile.settings',
    ])
    .where('user_presence.realm_id', '=', realmId)
    .where('user_profile.is_active', '=', 1)
    .where('user_profile.is_bot', '=', 0);
  query = userId === undefined ? query.where('user_presence.last_connected_time', '>=', now - PRESENCE_HISTORY_SECONDS) : query.where('user_presence.user_id', '=', userId);
  const rows = await query.orderBy('user_presence.user_id').execute();
  return rows
    .filter((row) => !row.settings.includes('presence_enabled') || resolveSettings(row.settings).presence_enabled)
    .map((row) => ({
      userId: row.user_id,
      email: row.email,
      dateJoined: Number(row.date_joined),
      ...presenceTimes(row),
    }));
}
