// How user_group events fold into the /register `realm_user_groups` (the groups GET /user_groups
// lists; initial-state.ts reads them with listUserGroups).
type Dict = Record<string, any>;

function groupsOf(state: Dict): Dict[] | undefined {
  return Array.isArray(state.realm_user_groups) ? (state.realm_user_groups as Dict[]) : undefined;
}

const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** Adds to or takes from one id list of a group (members, direct_subgroup_ids). */
function changeList(group: Dict, key: string, ids: number[], adding: boolean): void {
  const current = new Set<number>(group[key]);
  for (const id of ids) {
    if (adding) current.add(id);
    else current.delete(id);
  }
  group[key] = ascending(current);
}

/** Every user_group event: groups added, changed and removed, and their members and subgroups. */
export function applyUserGroupEvent(state: Dict, event: Dict): void {
  const groups = groupsOf(state);
  if (!groups) return;
  if (event.op === 'add') {
    groups.push({ ...(event.group as Dict) });
    groups.sort((a, b) => a.id - b.id);
    return;
  }
  if (event.op === 'remove') {
    state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
    // A deleted group leaves every group it was inside.
    for (const group of state.realm_user_groups as Dict[]) changeList(group, 'direct_subgroup_ids', [event.group_id], false);
    return;
  }
  const group = groups.find((g) => g.id === event.group_id);
  if (!group) return;
  switch (event.op) {
    case 'update':
      return void Object.assign(group, event.data);
    case 'add_members':
    case 'remove_members':
      return changeList(group, 'members', event.user_ids, event.op === 'add_members');
    case 'add_subgroups':
    case 'remove_subgroups':
      return changeList(group, 'direct_subgroup_ids', event.direct_subgroup_ids, event.op === 'add_subgroups');
  }
}

/** Deactivated users are members of no group; their reactivation comes with add_members events. */
export function dropDeactivatedMember(state: Dict, event: Dict): void {
  const person = event.person as Dict | undefined;
  if (event.op !== 'update' || person?.is_active !== false) return;
  for (const group of groupsOf(state) ?? []) group.members = (group.members as number[]).filter((id) => id !== person.user_id);
}
