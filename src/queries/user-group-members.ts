// The read side of one group: its members and subgroups, direct or through subgroups, and
// whether a user belongs to it. Open to every non-guest human of the realm.
import type { DbOrTx, RealmRow, UserRow } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { requireHuman, requireNotGuest } from '../lib/permissions.js';
import { INVALID_USER_GROUP, recursiveMemberIds, recursiveSubgroupIds } from '../lib/user-groups.js';
import { listUserGroups, type UserGroupDict } from './user-groups.js';
import { accessActiveHumanById } from './users.js';

async function readGroup(db: DbOrTx, realm: RealmRow, viewer: UserRow, id: number, now: number) {
  requireNotGuest(viewer);
  requireHuman(viewer);
  const groups = await listUserGroups(db, realm, now);
  const group = groups.find((g) => g.id === id);
  if (!group) throw new ApiError(INVALID_USER_GROUP);
  return { groups, group };
}

function members(groups: UserGroupDict[], group: UserGroupDict, directOnly: boolean): number[] {
  return directOnly ? group.members : recursiveMemberIds(groups, group.id);
}

export async function getUserGroupMembers(db: DbOrTx, realm: RealmRow, viewer: UserRow, id: number, directOnly: boolean, now: number): Promise<number[]> {
  const { groups, group } = await readGroup(db, realm, viewer, id, now);
  return members(groups, group, directOnly);
}

export async function getUserGroupSubgroups(db: DbOrTx, realm: RealmRow, viewer: UserRow, id: number, directOnly: boolean, now: number): Promise<number[]> {
  const { groups, group } = await readGroup(db, realm, viewer, id, now);
  return directOnly ? group.direct_subgroup_ids : recursiveSubgroupIds(groups, group.id);
}

export async function isUserGroupMember(
  db: DbOrTx,
  realm: RealmRow,
  viewer: UserRow,
  ids: { group: number; user: number },
  directOnly: boolean,
  now: number,
): Promise<boolean> {
  const { groups, group } = await readGroup(db, realm, viewer, ids.group, now);
  const target = await accessActiveHumanById(db, realm.id, ids.user);
  return members(groups, group, directOnly).includes(target.id);
}
