// Builds the API's User dictionary from a row, hiding what the requester may not see.
import { createHash } from 'node:crypto';
import type { UserRow } from '../db/schema.js';
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

/** Whether `viewer` may see the real (delivery) email of `target`. */
export function canSeeDeliveryEmail(viewer: Pick<UserRow, 'id' | 'role'>, target: UserRow): boolean {
  if (viewer.id === target.id || target.is_bot) return true;
  const visibility = remember(visibilityBySettings, target.settings, () => Number(resolveSettings(target.settings).email_address_visibility));
  switch (visibility) {
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

/** avatar_url: null when the client computes gravatars itself and may see the real email. */
export function avatarUrl(target: UserRow, clientGravatar: boolean, emailVisible: boolean): string | null {
  if (target.avatar_source === 'G') {
    if (clientGravatar && emailVisible) return null;
    return gravatarUrl(target.delivery_email, target.avatar_version);
  }
  return `/user_avatars/${target.realm_id}/${target.id}.png?version=${target.avatar_version}`;
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
    avatar_url: avatarUrl(target, options.clientGravatar, visible),
    avatar_version: target.avatar_version,
  };
  if (options.profileData && !target.is_bot) dict.profile_data = options.profileData;
  return dict;
}
