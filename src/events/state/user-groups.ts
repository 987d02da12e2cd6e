// The `realm_user_groups` part of the POST /register state (the groups GET /user_groups lists),
// and how membership events fold into it.
import type { DbOrTx, RealmRow } from '../../db/schema.js';
import { listUserGroups, type UserGroupDict } from '../../queries/user-groups.js';

export function realmUserGroupsState(db: DbOrTx, realm: RealmRow, now: number): Promise<UserGroupDict[]> {
  return listUserGroups(db, realm, now);
}

type Dict = Record<string, any>;

function groupsOf(state: Dict): Dict[] | undefined {
  return Array.isArray(state.realm_user_groups) ? (state.realm_user_groups as Dict[]) : undefined;
}

/** user_group add_members / remove_members: direct members of one group. */
export function applyUserGroupEvent(state: Dict, event: Dict): void {
  const group = groupsOf(state)?.find((g) => g.id === event.group_id);
  if (!group) return;
  const members = new Set<number>(group.members);
  for (const id of event.user_ids as number[]) {
    if (event.op === 'add_members') members.add(id);
    else if (event.op === 'remove_members') members.delete(id);
  }
  group.members = [...members].sort((a, b) => a - b);
}

/** Deactivated users are members of no group; their reactivation comes with add_members events. */
export function dropDeactivatedMember(state: Dict, event: Dict): void {
  const person = event.person as Dict | undefined;
  if (event.op !== 'update' || person?.is_active !== false) return;
  for (const group of groupsOf(state) ?? []) group.members = (group.members as number[]).filter((id) => id !== person.user_id);
}
