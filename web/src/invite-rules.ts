// What the invitation dialog offers: who may create links (the organization's
// create_multiuse_invite_group, its administrators), the roles each may hand out, how long a link
// lasts, and the request that creates it.
import type { Params } from './api.js';

export const Role = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;

export const canCreateInviteLinks = (myRole: number): boolean => myRole <= Role.ADMINISTRATOR;

export interface RoleChoice {
  role: number;
  label: string;
}

const ROLE_CHOICES: RoleChoice[] = [
  { role: Role.GUEST, label: 'Guest' },
  { role: Role.MEMBER, label: 'Member' },
  { role: Role.MODERATOR, label: 'Moderator' },
  { role: Role.ADMINISTRATOR, label: 'Administrator' },
  { role: Role.OWNER, label: 'Owner' },
];

/** Guests and members for anyone; moderators and administrators for administrators; owners for owners. */
export function inviteRoleChoices(myRole: number): RoleChoice[] {
  return ROLE_CHOICES.filter(({ role }) => {
    if (role === Role.OWNER) return myRole === Role.OWNER;
    if (role === Role.ADMINISTRATOR || role === Role.MODERATOR) return myRole <= Role.ADMINISTRATOR;
    return true;
  });
}

export interface ExpiryChoice {
  label: string;
  /** null: the link never expires. */
  minutes: number | null;
}

export const EXPIRY_CHOICES: ExpiryChoice[] = [
  { label: '1 day', minutes: 1440 },
  { label: '3 days', minutes: 4320 },
  { label: '10 days', minutes: 14_400 },
  { label: '30 days', minutes: 43_200 },
  { label: 'Never expires', minutes: null },
];
/** The server's own default: ten days. */
export const DEFAULT_EXPIRY = 2;

export interface InviteChoice {
  role: number;
  expiry: ExpiryChoice;
  streamIds: number[];
}

/** POST /invites/multiuse's parameters; no streams means the organization's default streams. */
export function inviteParams(choice: InviteChoice): Params {
  return {
    invite_as: choice.role,
    // null is sent as JSON, as every non-string parameter is.
    invite_expires_in_minutes: choice.expiry.minutes === null ? 'null' : choice.expiry.minutes,
    stream_ids: [...choice.streamIds].sort((a, b) => a - b),
  };
}

/** The sentence under a new link. */
export function linkSummary(choice: InviteChoice, roles: RoleChoice[]): string {
  const role = (roles.find((r) => r.role === choice.role)?.label ?? 'Member').toLowerCase();
  const article = /^[aeiou]/.test(role) ? 'an' : 'a';
  const lasts = choice.expiry.minutes === null ? 'It never expires.' : `It expires in ${choice.expiry.label}.`;
  return `Anyone with this link can sign up as ${article} ${role}. ${lasts}`;
}
