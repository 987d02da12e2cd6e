// Roles and the questions asked of them everywhere.
import type { UserRow } from '../db/schema.js';

export const Role = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export const ROLE_VALUES: readonly number[] = Object.values(Role);

type HasRole = Pick<UserRow, 'role'>;

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
