// The `default_streams` part of the POST /register state: ids of the realm's default streams.
import type { DbOrTx, UserRow } from '../../db/schema.js';
import { isGuest } from '../../lib/roles.js';
import { defaultStreamIds } from '../../queries/streams.js';

/** Guests are not told which streams are default (they cannot see them all), as the reference does. */
export async function defaultStreamsState(db: DbOrTx, user: UserRow): Promise<{ realm_default_streams: number[] }> {
  if (isGuest(user)) return { realm_default_streams: [] };
  return { realm_default_streams: [...(await defaultStreamIds(db, user.realm_id))].sort((a, b) => a - b) };
}
