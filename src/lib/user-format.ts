// Builds the API's User dictionary from a row, hiding what the requester may not see.
import { createHash } from 'node:crypto';
import type { UserRow } from '../types/rows.js';
import { BoundedMap, remember } from './bounded-map.js';
import { isAdmin, isGuest, isModerator, isOwner } from './roles.js';
import { EMAIL_VISIBILITY, resolveSettings } from './settings-registry.js';

/** A realm's user list formats every user on each POST /register; these repeat across calls. */
const MEMO_LIMIT = 20_000;
const gravatarHashes = new BoundedMap<string, string>(MEMO_LIMIT);
const visibilityBySettings = new BoundedMap<string, number>(MEMO_LIMIT);
const isoDates = new BoundedMap<number, string>(MEMO_LIMIT);

export function isoDate(seconds: number): string {
  return remember(isoDates, seconds, () => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00'));
}

export function gravatarUrl(email: string, version: number): string {
  const hash = remember(gravatarHashes, email, () => createHash('md5').update(email.trim().toLowerCase()).digest('hex'));
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${version}`;
}

function visibilityOf(target: Pick<UserRow, 'settings'>): number {
  return remember(visibilityBySettings, target.settings, () => Number(resolveSettings(target.settings).email_address_visibility));
}

/** Whether the user's real address is their API email: bots always, humans whose setting says everyone. */
export function emailIsPublic(target: Pick<UserRow, 'is_bot' | 'settings'>): boolean {
  return Boolean(target.is_bot) || visibilityOf(target) === EMAIL_VISIBILITY.EVERYONE;
}

/** The domain of placeholder addresses: the organization's host name (a port would not make an address). */
export function placeholderDomain(realmUrl: string): string {
  try {
    return new URL(realmUrl).hostname.toLowerCase();
  } catch {
    return 'confab.invalid';
  }
}

/** The API email standing in for a hidden address: user{id}@{realm host}. */
export function placeholderEmail(userId: number, realmUrl: string): string {
  return `user${userId}@${placeholderDomain(realmUrl)}`;
}

/** The id a placeholder address of this organization names, or undefined for any other text. */
export function placeholderUserId(email: string, realmUrl: string): number | undefined {
  const match = /^user(\d{1,10})@(.+)$/.exec(email.trim().toLowerCase());
  if (!match || match[2] !== placeholderDomain(realmUrl)) return undefined;
  return Number(match[1]);
}

/** The address other users see in `email` fields: the real one only when it is public. */
export function apiEmailOf(user: Pick<UserRow, 'id' | 'is_bot' | 'settings' | 'delivery_email'>, realmUrl: string): string {
  return emailIsPublic(user) ? user.delivery_email : placeholderEmail(user.id, realmUrl);
}

/** Whether `viewer` may see the real (delivery) email of `target`. */
export function canSeeDeliveryEmail(viewer: Pick<UserRow, 'id' | 'role'>, target: Pick<UserRow, 'id' | 'is_bot' | 'settings'>): boolean {
  if (viewer.id === target.id || target.is_bot) return true;
  switch (visibilityOf(target)) {
    case EMAIL_VISIBILITY.EVERYONE:
      return true;
    case EMAIL_VISIBILITY.MEMBERS:
      return !isGuest(viewer);
    case EMAIL_VISIBILITY.MODERATORS:
      return isModerator(viewer);
    case EMAIL_VISIBILITY.ADMINS:
      return isAdmin(viewer);
    default:
      return false;
  }
}

/**
 * Whether `email` names `target` for `viewer`: the API email and the placeholder form always, the
 * real address only for those who may see it, so a hidden address answers like an unknown one.
 */
export function emailNamesUser(viewer: Pick<UserRow, 'id' | 'role'>, target: UserRow, email: string, realmUrl: string): boolean {
  const lowered = email.trim().toLowerCase();
  if (lowered === target.email.toLowerCase()) return true;
  if (lowered === target.delivery_email.toLowerCase() && canSeeDeliveryEmail(viewer, target)) return true;
  return placeholderUserId(lowered, realmUrl) === target.id;
}

// Whether users without an upload get a Gravatar: the operator's --enable-gravatar (the reference's
// ENABLE_GRAVATAR setting). A server-wide setting, fixed when the app is built (buildApp sets it).
let gravatarEnabled = false;

export function setGravatarEnabled(enabled: boolean): void {
  gravatarEnabled = enabled;
}

export function isGravatarEnabled(): boolean {
  return gravatarEnabled;
}

/**
 * Whether a client that asked for client_gravatar derives this user's avatar itself, so avatar_url
 * is null: only for a Gravatar in use, and only from a public address (the client hashes the API
 * email). Without Gravatar every client is sent real URLs, as the reference does.
 */
export function clientDerivesAvatar(target: Pick<UserRow, 'avatar_source' | 'is_bot' | 'settings'>, clientGravatar: boolean): boolean {
  return clientGravatar && gravatarEnabled && target.avatar_source === 'G' && emailIsPublic(target);
}

/** Where a user's avatar is served: the upload, or (source 'G' without Gravatar) Confab's default. */
export function avatarPath(realmId: number, userId: number, medium = false): string {
  return `/user_avatars/${realmId}/${userId}${medium ? '-medium' : ''}.png`;
}

/**
 * avatar_url. A gravatar is derived from the API email, never from a hidden address (the hash would
 * give the address away); null when the client derives gravatars itself (clientDerivesAvatar).
 */
export function avatarUrl(target: UserRow, clientGravatar: boolean): string | null {
  if (target.avatar_source === 'G' && gravatarEnabled) {
    if (clientDerivesAvatar(target, clientGravatar)) return null;
    return gravatarUrl(target.email, target.avatar_version);
  }
  return `${avatarPath(target.realm_id, target.id)}?version=${target.avatar_version}`;
}

export interface UserDictOptions {
  clientGravatar: boolean;
  /** Custom profile field values, keyed by field id, when requested. */
  profileData?: Record<string, { value: string; rendered_value?: string }>;
}

export function userDict(viewer: Pick<UserRow, 'id' | 'role'>, target: UserRow, options: UserDictOptions) {
  const visible = canSeeDeliveryEmail(viewer, target);
  const dict: Record<string, unknown> = {
    user_id: target.id,
    delivery_email: visible ? target.delivery_email : null,
    email: target.email,
    full_name: target.full_name,
    date_joined: isoDate(target.date_joined),
    is_active: Boolean(target.is_active),
    is_owner: isOwner(target),
    is_admin: isAdmin(target),
    is_guest: isGuest(target),
    is_billing_admin: false,
    is_bot: Boolean(target.is_bot),
    bot_type: target.bot_type,
    bot_owner_id: target.bot_owner_id,
    role: target.role,
    timezone: target.timezone,
    avatar_url: avatarUrl(target, options.clientGravatar),
    avatar_version: target.avatar_version,
  };
  if (options.profileData && !target.is_bot) dict.profile_data = options.profileData;
  return dict;
}
