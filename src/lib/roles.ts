// Roles and the questions asked of them everywhere.
import type { UserRow } from '../types/rows.js';

export const Role = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export const ROLE_VALUES: readonly number[] = Object.values(Role);

type HasRole = Pick<UserRow, 'role'>;
type HasTenure = Pick<UserRow, 'role' | 'date_joined'>;

export const isOwner = (u: HasRole) => u.role === Role.OWNER;
export const isAdmin = (u: HasRole) => u.role <= Role.ADMINISTRATOR;
export const isModerator = (u: HasRole) => u.role <= Role.MODERATOR;
export const isGuest = (u: HasRole) => u.role === Role.GUEST;

export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

/** System user groups every realm has; their members follow from roles. */
export const SYSTEM_GROUPS = [
  { name: 'role:internet', description: 'Everyone on the Internet', maxRole: null },
  { name: 'role:everyone', description: 'Everyone including guests', maxRole: Role.GUEST },
  { name: 'role:members', description: 'Everyone except guests', maxRole: Role.MEMBER },
  { name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests', maxRole: Role.MEMBER },
  { name: 'role:moderators', description: 'Moderators of this organization, including admins', maxRole: Role.MODERATOR },
  { name: 'role:administrators', description: 'Administrators of this organization, including owners', maxRole: Role.ADMINISTRATOR },
  { name: 'role:owners', description: 'Owners of this organization', maxRole: Role.OWNER },
  { name: 'role:nobody', description: 'Nobody', maxRole: 0 },
] as const;

const DAY = 86_400;

/** A member who joined within the realm's waiting period (days): not a full member yet. Moderators and above always are. */
export function isNewMember(user: HasTenure, waitingPeriodDays: number, now: number): boolean {
  return user.role === Role.MEMBER && now - user.date_joined < waitingPeriodDays * DAY;
}

/**
 * Whether a user belongs to the system group of this name, directly or through the groups it
 * contains; undefined when no system group has the name.
 */
export function inSystemGroup(name: string, user: HasTenure, waitingPeriodDays: number, now: number): boolean | undefined {
  const group = SYSTEM_GROUPS.find((g) => g.name === name);
  if (!group) return undefined;
  if (group.maxRole === null) return true;
  if (user.role > group.maxRole) return false;
  return name !== 'role:fullmembers' || !isNewMember(user, waitingPeriodDays, now);
}
