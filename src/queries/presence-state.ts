// The presences every presence read answers with: the /register `presence` area,
// GET /realm/presence and the answer to a presence ping.
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { OFFLINE_THRESHOLD_SECONDS, legacyPresence } from '../lib/presence.js';
import { realmSettings } from '../lib/realm-settings.js';
import { cachedPresences } from './presence-cache.js';
import { realmPresence } from './presence.js';
import { findUserByEmailFor, getUserById } from './users.js';

async function presencesOfRealm(db: DbOrTx, realm: RealmRow, slim: boolean, now: number): Promise<Record<string, unknown>> {
  // An organization that turned presence off shows nobody's.
  if (realmSettings(realm).presence_disabled) return {};
  // A copy: the register fold changes its own state, never the kept answer.
  return { ...(await cachedPresences(db, realm.id, slim, now)) };
}

export async function presenceResponse(db: DbOrTx, realm: RealmRow, slim: boolean, now: number) {
  return { presences: await presencesOfRealm(db, realm, slim, now), server_timestamp: now };
}

/**
 * One active user's presence for GET /users/{user_id_or_email}/presence: the legacy form
 * without client names, and `aggregated` says offline once its timestamp is past the threshold.
 */
export async function userPresence(db: DbOrTx, viewer: UserRow, realm: RealmRow, userIdOrEmail: string, now: number) {
  const target = /^[0-9]{1,10}$/.test(userIdOrEmail)
    ? await getUserById(db, realm.id, Number(userIdOrEmail))
    : await findUserByEmailFor(db, viewer, realm, userIdOrEmail);
  if (!target || !target.is_active) throw new ApiError('No such user');
  if (target.is_bot) throw new ApiError('Presence is not supported for bot users.');
  const [entry] = await realmPresence(db, realm.id, now, target.id);
  if (!entry) throw new ApiError(`No presence data for ${userIdOrEmail}`);
  const { website, aggregated } = legacyPresence(entry, entry.dateJoined, now);
  return {
    website: { status: website.status, timestamp: website.timestamp },
    aggregated: { status: now - aggregated.timestamp > OFFLINE_THRESHOLD_SECONDS ? 'offline' : aggregated.status, timestamp: aggregated.timestamp },
  };
}
