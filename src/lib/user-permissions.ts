// Who may manage whose account: pure rules over rows already loaded.
import type { UserRow } from '../types/rows.js';
import { isAdmin, isOwner } from './roles.js';

/** Administrators manage every account; a user also manages the bots they own. */
export function canAdminUser(actor: Pick<UserRow, 'id' | 'role'>, target: Pick<UserRow, 'bot_owner_id' | 'is_bot'>): boolean {
  if (target.is_bot && target.bot_owner_id === actor.id) return true;
  return isAdmin(actor);
}

/** Whether the user is the only active human owner, given how many there are. */
export function isLastOwner(user: Pick<UserRow, 'role' | 'is_bot'>, activeHumanOwners: number): boolean {
  return isOwner(user) && !user.is_bot && activeHumanOwners === 1;
}
