// Who may create streams, join them, add others to them and take others out of them.
// Pure rules over rows already loaded; lib/permissions.ts decides who can see a stream.
import type { StreamRow, UserGroupRow, UserRow } from '../types/rows.js';
import { canSeeStream } from './permissions.js';
import { inSystemGroup, isGuest } from './roles.js';

type Actor = Pick<UserRow, 'role'>;
type StreamAccess = Pick<StreamRow, 'invite_only' | 'history_public_to_subscribers' | 'is_web_public'>;

/** Creating streams of either kind is open to members and above (the era's default policies). */
export const canCreateStreams = (actor: Actor): boolean => !isGuest(actor);

/** Subscribing other users is open to members and above (the era's default invite policy). */
export const canSubscribeOthers = (actor: Actor): boolean => !isGuest(actor);

/**
 * Whether the actor may add subscribers to an existing stream through the subscribe request:
 * streams they are on, web-public streams, and public streams unless they are a guest.
 * Administrators are no exception for private streams they are not on.
 */
export function canAddSubscribers(actor: Actor, stream: StreamAccess, subscribed: boolean): boolean {
  if (subscribed || stream.is_web_public) return true;
  return !stream.invite_only && !isGuest(actor);
}

/**
 * Whether a user belongs to a user group, given the group and (for groups that are not
 * role-based system groups) the ids of its members. Full membership needs the realm's waiting
 * period (days) to have passed by `now`.
 */
export function groupIncludes(
  group: Pick<UserGroupRow, 'name' | 'is_system_group'>,
  user: Pick<UserRow, 'id' | 'role' | 'date_joined'>,
  memberIds: readonly number[],
  waitingPeriodDays: number,
  now: number,
): boolean {
  const system = group.is_system_group ? inSystemGroup(group.name, user, waitingPeriodDays, now) : undefined;
  return system ?? memberIds.includes(user.id);
}

/** Removing other users needs metadata access to the stream and membership of its can_remove_subscribers_group. */
export function canRemoveSubscribers(actor: Actor, stream: StreamAccess, subscribed: boolean, inRemoveGroup: boolean): boolean {
  return canSeeStream(actor, stream, subscribed) && inRemoveGroup;
}

/** Whether the actor acts only for itself or a bot it owns (no special rights needed). */
export function controlsUser(actor: Pick<UserRow, 'id'>, target: Pick<UserRow, 'id' | 'is_bot' | 'bot_owner_id'>): boolean {
  return actor.id === target.id || (Boolean(target.is_bot) && target.bot_owner_id === actor.id);
}
