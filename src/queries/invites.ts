// Reusable invitation links in the store.
import type { DbOrTx, MultiuseInviteRow, StreamRow } from '../db/schema.js';
import { InviteStatus } from '../lib/invites.js';
import { isStorableId, isStorableText } from './users.js';

export function getInviteById(db: DbOrTx, realmId: number, id: number): Promise<MultiuseInviteRow | undefined> {
  if (!isStorableId(id)) return Promise.resolve(undefined);
  return db.selectFrom('multiuse_invite').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export function getInviteByKey(db: DbOrTx, key: string): Promise<MultiuseInviteRow | undefined> {
  if (!isStorableText(key)) return Promise.resolve(undefined);
  return db.selectFrom('multiuse_invite').selectAll().where('confirmation_key', '=', key).executeTakeFirst();
}

/**
 * The links not revoked and not expired at `now`: the realm's all, or with `referredBy` only that
 * user's. Oldest first.
 */
export function listUsableInvites(db: DbOrTx, realmId: number, now: number, referredBy?: number): Promise<MultiuseInviteRow[]> {
  let query = db
    .selectFrom('multiuse_invite')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('status', '=', InviteStatus.USABLE)
    .where((eb) => eb.or([eb('expiry_date', 'is', null), eb('expiry_date', '>=', now)]));
  if (referredBy !== undefined) query = query.where('referred_by_id', '=', referredBy);
  return query.orderBy('id').execute();
}

/** The active streams an invitation subscribes its new accounts to, by id. */
export function inviteStreams(db: DbOrTx, inviteId: number): Promise<StreamRow[]> {
  return db
    .selectFrom('stream')
    .innerJoin('multiuse_invite_stream', 'multiuse_invite_stream.stream_id', 'stream.id')
    .selectAll('stream')
    .where('multiuse_invite_stream.invite_id', '=', inviteId)
    .where('stream.deactivated', '=', 0)
    .orderBy('stream.id')
    .execute();
}

/** Whether the invitation listed streams of its own (an archived one still counts as listed). */
export async function inviteListsStreams(db: DbOrTx, inviteId: number): Promise<boolean> {
  const row = await db.selectFrom('multiuse_invite_stream').select('stream_id').where('invite_id', '=', inviteId).executeTakeFirst();
  return row !== undefined;
}
