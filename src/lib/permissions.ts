// Who may see and do what: pure rules over rows already loaded.
import type { StreamRow, UserRow } from '../types/rows.js';
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { isAdmin, isGuest, isNewMember } from './roles.js';

type Viewer = Pick<UserRow, 'role'>;
type StreamAccess = Pick<StreamRow, 'invite_only' | 'history_public_to_subscribers' | 'is_web_public'>;

/** Whether the viewer may know the stream exists (list it, look it up by name or id). */
export function canSeeStream(viewer: Viewer, stream: StreamAccess, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (stream.invite_only) return isAdmin(viewer);
  return !isGuest(viewer) || Boolean(stream.is_web_public);
}

/** Whether the viewer may read the stream's whole history, received or not. */
export function canAccessStreamHistory(viewer: Viewer, stream: StreamAccess, subscribed: boolean): boolean {
  if (stream.invite_only) return subscribed && Boolean(stream.history_public_to_subscribers);
  return subscribed || !isGuest(viewer) || Boolean(stream.is_web_public);
}

/**
 * Whether the viewer may open one stream message (by id, to react, edit or flag it): public
 * streams for everyone but guests; otherwise only while subscribed, and for protected history
 * only messages the viewer received. Leaving a stream ends access to what one received there;
 * a guest reads web-public history through narrows, not by id.
 */
export function canReadStreamMessage(viewer: Viewer, stream: StreamAccess, subscribed: boolean, received: boolean): boolean {
  if (!stream.invite_only && !isGuest(viewer)) return true;
  if (!stream.history_public_to_subscribers) return subscribed && received;
  return subscribed;
}

/** Whether the viewer may subscribe themselves to the stream without an invitation. */
export function canSubscribeSelf(viewer: Viewer, stream: StreamAccess): boolean {
  return !stream.invite_only && !isGuest(viewer);
}

/**
 * Whether the user passes one of the era's integer policies
 * (1 members, 2 admins, 3 full members, 4 moderators, 5 everyone, 6 nobody).
 */
export function passesPolicy(
  user: Pick<UserRow, 'role' | 'date_joined'>,
  policy: number,
  waitingPeriodDays: number,
  now: number,
): boolean {
  switch (policy) {
    case 5:
      return true;
    case 1:
      return !isGuest(user);
    case 2:
      return isAdmin(user);
    case 4:
      return user.role <= 300;
    case 3:
      return !isGuest(user) && !isNewMember(user, waitingPeriodDays, now);
    default:
      return false;
  }
}

/** Administrators only: the reference's UNAUTHORIZED_PRINCIPAL answer for anyone else. */
export function requireAdmin(user: Pick<UserRow, 'role'>): void {
  if (!isAdmin(user)) throw new UnauthorizedPrincipalError();
}

/** Endpoints for full users only: guests are refused. */
export function requireNotGuest(user: Pick<UserRow, 'role'>): void {
  if (isGuest(user)) throw new ApiError('Not allowed for guest users');
}

/** Endpoints for people only: bots are refused. */
export function requireHuman(user: Pick<UserRow, 'is_bot'>): void {
  if (user.is_bot) throw new ApiError('This endpoint does not accept bot requests.');
}
