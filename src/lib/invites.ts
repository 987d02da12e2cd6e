// Reusable invitation links: who may make and revoke them, when one has run out, how GET /invites
// shows them, and what the sign-up form asks of a newcomer. Pure rules over rows already loaded.
import type { MultiuseInviteRow, UserRow } from '../types/rows.js';
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { isLoginEmail } from './credentials.js';
import { isAdmin, isGuest, isOwner, Role } from './roles.js';

/** The reference's default lifetime of an invitation (INVITATION_LINK_VALIDITY_MINUTES): ten days. */
export const DEFAULT_INVITE_MINUTES = 14_400;
/** About 1900 years: a longer lifetime would overflow the expiry timestamp. */
export const MAX_INVITE_MINUTES = 1_000_000_000;

export const InviteStatus = { USABLE: 0, REVOKED: 1 } as const;

/**
 * The realm's create_multiuse_invite_group. Organizations keep the reference's default, and POST
 * /register reports this group's id as realm_create_multiuse_invite_group.
 */
export const CREATE_MULTIUSE_INVITE_GROUP = 'role:administrators';

/** Whether the user belongs to create_multiuse_invite_group (administrators and owners). */
export const canCreateMultiuseInvite = (user: Pick<UserRow, 'role'>): boolean => isAdmin(user);

/** The roles only an administrator may hand out (owner needs an owner, too). */
export function roleNeedsAdmin(invitedAs: number): boolean {
  return invitedAs === Role.OWNER || invitedAs === Role.ADMINISTRATOR || invitedAs === Role.MODERATOR;
}

/** The reference's check_role_based_permissions. */
export function checkInviteRolePermission(actor: Pick<UserRow, 'role'>, invitedAs: number, requireAdmin: boolean): void {
  if (invitedAs === Role.OWNER && !isOwner(actor)) throw new UnauthorizedPrincipalError('Must be an organization owner');
  if (requireAdmin && !isAdmin(actor)) throw new ApiError('Must be an organization administrator');
}

/**
 * Whether `user` may offer, now, a reusable link for the role `invitedAs`: the same rights making
 * one needs. A link is honoured only while its creator keeps them, so a demoted or deactivated
 * administrator's links stop making accounts.
 */
export function mayOfferMultiuseInvite(user: Pick<UserRow, 'role' | 'is_active' | 'is_bot'>, invitedAs: number): boolean {
  if (!user.is_active || user.is_bot || isGuest(user) || !canCreateMultiuseInvite(user)) return false;
  return (invitedAs !== Role.OWNER || isOwner(user)) && (!roleNeedsAdmin(invitedAs) || isAdmin(user));
}

/** A link stays good through its expiry second, as the reference compares. */
export function inviteExpired(invite: Pick<MultiuseInviteRow, 'expiry_date'>, now: number): boolean {
  return invite.expiry_date !== null && now > invite.expiry_date;
}

export function inviteLink(realmUrl: string, key: string): string {
  return `${realmUrl}/join/${key}/`;
}

/** One entry of GET /invites, in the feature-level-229 form. */
export function inviteDict(invite: MultiuseInviteRow, realmUrl: string) {
  return {
    id: invite.id,
    invited_by_user_id: invite.referred_by_id,
    invited: invite.date_sent,
    expiry_date: invite.expiry_date,
    invited_as: invite.invited_as,
    link_url: inviteLink(realmUrl, invite.confirmation_key),
    is_multiuse: true,
  };
}

export const MAX_SIGNUP_FIELD_LENGTH = 100;

/** The sign-up form's syntax checks of an address, with its texts; null when the address passes. */
export function signupEmailError(email: string): string | null {
  if (email === '') return 'This field is required.';
  // An address the login form would refuse could never be used to log in.
  if (!isLoginEmail(email) || /\p{C}/u.test(email)) return 'Enter a valid email address.';
  return null;
}

/** A required text field of the sign-up form: present, and at most 100 characters. */
export function signupFieldError(value: string): string | null {
  if (value === '') return 'This field is required.';
  const length = [...value].length;
  return length > MAX_SIGNUP_FIELD_LENGTH ? `Ensure this value has at most ${MAX_SIGNUP_FIELD_LENGTH} characters (it has ${length}).` : null;
}
