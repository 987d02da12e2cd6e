// Reusable invitation links: creating one (POST /invites/multiuse), listing those the requester
// controls (GET /invites) and revoking one (DELETE /invites/multiuse/{invite_id}). Each change
// sends invites_changed to the administrators and the link's creator.
import type { DbOrTx, MultiuseInviteRow, RealmRow, StreamRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { generateConfirmationKey } from '../lib/credentials.js';
import {
  canCreateMultiuseInvite,
  checkInviteRolePermission,
  inviteDict,
  InviteStatus,
  inviteLink,
  roleNeedsAdmin,
} from '../lib/invites.js';
import { requireHuman, requireNotGuest } from '../lib/permissions.js';
import { isAdmin } from '../lib/roles.js';
import { getInviteById, listUsableInvites } from '../queries/invites.js';
import { accessStreamById } from '../queries/stream-access.js';
import { activeUserRoles } from '../queries/users.js';
import type { ActionContext, SystemContext } from './context.js';

/** The reference's notify_invites_changed: the realm's active administrators, and the link's creator. */
export async function notifyInvitesChanged(ctx: SystemContext, realm: RealmRow, referrerId?: number): Promise<void> {
  const admins = (await activeUserRoles(ctx.tx, realm.id)).filter((u) => isAdmin(u)).map((u) => u.id);
  ctx.events.send({ type: 'invites_changed' }, referrerId === undefined ? admins : [...admins, referrerId]);
}

export interface NewInviteLink {
  invitedAs: number;
  /** null: never expires. */
  expiresInMinutes: number | null;
  streamIds: number[];
}

/** Every stream named must be one the inviter is on or may see and join (no private stream they are not on). */
async function accessStreamsForInvite(ctx: ActionContext, streamIds: number[]): Promise<StreamRow[]> {
  const streams: StreamRow[] = [];
  for (const id of new Set(streamIds)) {
    const access = await accessStreamById(ctx.tx, ctx.actor, id).catch((error: unknown) => {
      if (error instanceof ApiError) return null;
      throw error;
    });
    if (!access || (access.stream.invite_only && !access.subscribed)) throw new ApiError(`Invalid channel ID ${id}. No invites were sent.`);
    streams.push(access.stream);
  }
  return streams;
}

/** POST /invites/multiuse: the link, for members of create_multiuse_invite_group. */
export async function checkCreateMultiuseInvite(ctx: ActionContext, request: NewInviteLink): Promise<string> {
  requireNotGuest(ctx.actor);
  requireHuman(ctx.actor);
  if (!canCreateMultiuseInvite(ctx.actor)) throw new ApiError('Insufficient permission');
  checkInviteRolePermission(ctx.actor, request.invitedAs, roleNeedsAdmin(request.invitedAs));
  const streams = await accessStreamsForInvite(ctx, request.streamIds);
  return doCreateMultiuseInviteLink(ctx, ctx.realm, ctx.actor, request, streams);
}

export async function doCreateMultiuseInviteLink(
  ctx: SystemContext,
  realm: RealmRow,
  referrer: UserRow,
  request: Pick<NewInviteLink, 'invitedAs' | 'expiresInMinutes'>,
  streams: StreamRow[],
): Promise<string> {
  const key = generateConfirmationKey();
  const { id } = await ctx.tx
    .insertInto('multiuse_invite')
    .values({
      realm_id: realm.id,
      referred_by_id: referrer.id,
      invited_as: request.invitedAs,
      confirmation_key: key,
      date_sent: ctx.now,
      expiry_date: request.expiresInMinutes === null ? null : ctx.now + request.expiresInMinutes * 60,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (streams.length > 0) {
    await ctx.tx.insertInto('multiuse_invite_stream').values(streams.map((s) => ({ invite_id: id, stream_id: s.id }))).execute();
  }
  await notifyInvitesChanged(ctx, realm, referrer.id);
  return inviteLink(realm.url, key);
}

/** GET /invites: administrators see every usable link of the realm, others their own. */
export async function getInvitesControlledBy(db: DbOrTx, actor: UserRow, realm: RealmRow, now: number) {
  requireNotGuest(actor);
  requireHuman(actor);
  const invites = await listUsableInvites(db, realm.id, now, isAdmin(actor) ? undefined : actor.id);
  return invites.map((invite) => inviteDict(invite, realm.url));
}

/** DELETE /invites/multiuse/{invite_id}: the link's creator, or an administrator (an owner for owner links). */
export async function checkRevokeMultiuseInvite(ctx: ActionContext, inviteId: number): Promise<void> {
  requireNotGuest(ctx.actor);
  requireHuman(ctx.actor);
  const invite = await getInviteById(ctx.tx, ctx.realm.id, inviteId);
  if (!invite) throw new ApiError('No such invitation');
  if (invite.referred_by_id !== ctx.actor.id) checkInviteRolePermission(ctx.actor, invite.invited_as, true);
  if (invite.status === InviteStatus.REVOKED) throw new ApiError('Invitation has already been revoked');
  await doRevokeMultiuseInvite(ctx, ctx.realm, invite);
}

export async function doRevokeMultiuseInvite(ctx: SystemContext, realm: RealmRow, invite: MultiuseInviteRow): Promise<void> {
  await ctx.tx.updateTable('multiuse_invite').set({ status: InviteStatus.REVOKED }).where('id', '=', invite.id).execute();
  await notifyInvitesChanged(ctx, realm, invite.referred_by_id);
}

/** A deactivated user's usable links run out now, as the reference's deactivation has them. */
export async function expireInvitesOf(ctx: SystemContext, realm: RealmRow, user: UserRow): Promise<void> {
  const usable = await listUsableInvites(ctx.tx, realm.id, ctx.now, user.id);
  if (usable.length === 0) return;
  await ctx.tx
    .updateTable('multiuse_invite')
    // Timestamps are whole seconds and a link is good through its expiry second: the one before now.
    .set({ expiry_date: ctx.now - 1 })
    .where('id', 'in', usable.map((invite) => invite.id))
    .execute();
  await notifyInvitesChanged(ctx, realm);
}
