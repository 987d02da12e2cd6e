// Pure rules for user groups: valid names, who may edit which group, which groups a setting may
// name, and walking groups inside groups (members and subgroups, recursively).
import type { UserRow } from '../types/rows.js';
import { ApiError } from '../errors.js';
import { passesPolicy } from './permissions.js';
import { isGuest, isModerator } from './roles.js';

export const MAX_USER_GROUP_NAME_LENGTH = 100;
/** Names that would read as a system group, a mention, or another kind of object. */
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

export const INSUFFICIENT_PERMISSION = 'Insufficient permission';
export const INVALID_USER_GROUP = 'Invalid user group';

/** PostgreSQL text refuses NUL, so it is refused here first, wherever it sits. */
export function checkStorableText(text: string, what: string): string {
  const nul = [...text].indexOf('\u0000');
  if (nul >= 0) throw new ApiError(`Invalid character in ${what}, at position ${nul + 1}.`);
  return text;
}

export function checkUserGroupName(name: string): string {
  if (name.trim() === '') throw new ApiError("User group name can't be empty!");
  if ([...name].length > MAX_USER_GROUP_NAME_LENGTH) {
    throw new ApiError(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw new ApiError(`User group name cannot start with '${prefix}'.`);
  return checkStorableText(name, 'user group name');
}

/** The realm's user_group_edit_policy: who may create groups and change them at all. */
export function canEditUserGroups(user: Pick<UserRow, 'role' | 'date_joined'>, policy: number, waitingDays: number, now: number): boolean {
  return passesPolicy(user, policy, waitingDays, now);
}

/** One group's own changes are for moderators and above, and for its direct members; never for system groups. */
export function mayChangeGroup(actor: Pick<UserRow, 'id' | 'role'>, group: GroupNode & { is_system_group: boolean }): boolean {
  if (group.is_system_group || isGuest(actor)) return false;
  return isModerator(actor) || group.members.includes(actor.id);
}

/** can_mention_group may name any group of the realm except role:internet and role:owners. */
export function checkCanMentionGroup(group: { name: string; is_system_group: boolean }): void {
  if (!group.is_system_group) return;
  for (const name of ['role:internet', 'role:owners']) {
    if (group.name === name) throw new ApiError(`'can_mention_group' setting cannot be set to '${name}' group.`);
  }
}

export interface GroupNode {
  id: number;
  members: number[];
  direct_subgroup_ids: number[];
}

/** Every group reachable from `id` through subgroups, `id` itself excluded; ascending. */
export function recursiveSubgroupIds(groups: readonly GroupNode[], id: number): number[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const seen = new Set<number>();
  const stack = [...(byId.get(id)?.direct_subgroup_ids ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(byId.get(next)?.direct_subgroup_ids ?? []));
  }
  seen.delete(id);
  return [...seen].sort((a, b) => a - b);
}

/** The group's members together with those of all its subgroups; ascending. */
export function recursiveMemberIds(groups: readonly GroupNode[], id: number): number[] {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const members = new Set<number>(byId.get(id)?.members ?? []);
  for (const sub of recursiveSubgroupIds(groups, id)) for (const m of byId.get(sub)?.members ?? []) members.add(m);
  return [...members].sort((a, b) => a - b);
}
