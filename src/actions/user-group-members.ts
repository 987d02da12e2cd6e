// Adding and removing a group's direct members and direct subgroups. As in the reference, one
// request may add and delete at once (adds first), all in one transaction; a group may never end
// up inside itself; people added or removed by someone else hear it from the notification bot.
import { ApiError } from '../errors.js';
import { recursiveSubgroupIds } from '../lib/user-groups.js';
import type { UserGroupDict } from '../queries/user-groups.js';
import type { ActionContext } from './context.js';
import { notifyGroupMembershipChange } from './user-group-notices.js';
import { accessGroupForChange, accessUsersByIds, announceGroupChange, realmGroups, requireGroupEditor } from './user-groups.js';

const NOTHING_TO_DO = 'Nothing to do. Specify at least one of "add" or "delete".';

export async function updateUserGroupMembers(ctx: ActionContext, id: number, add: number[], remove: number[]): Promise<void> {
  requireGroupEditor(ctx);
  if (add.length === 0 && remove.length === 0) throw new ApiError(NOTHING_TO_DO);
  if (add.length > 0) {
    const group = accessGroupForChange(await realmGroups(ctx), ctx.actor, id);
    const userIds = await accessUsersByIds(ctx, add);
    const already = userIds.find((u) => group.members.includes(u));
    if (already !== undefined) throw new ApiError(`User ${already} is already a member of this group`);
    await ctx.tx.insertInto('user_group_member').values(userIds.map((user_id) => ({ group_id: id, user_id }))).execute();
    await announceGroupChange(ctx, { op: 'add_members', group_id: id, user_ids: [...userIds].sort((a, b) => a - b) });
    await notifyGroupMembershipChange(ctx, group.name, userIds, true);
  }
  if (remove.length > 0) {
    const userIds = await accessUsersByIds(ctx, remove);
    const group = accessGroupForChange(await realmGroups(ctx), ctx.actor, id);
    const absent = userIds.find((u) => !group.members.includes(u));
    if (absent !== undefined) throw new ApiError(`There is no member '${absent}' in this user group`);
    await ctx.tx.deleteFrom('user_group_member').where('group_id', '=', id).where('user_id', 'in', userIds).execute();
    await announceGroupChange(ctx, { op: 'remove_members', group_id: id, user_ids: [...userIds].sort((a, b) => a - b) });
    await notifyGroupMembershipChange(ctx, group.name, userIds, false);
  }
}

/** Groups of the realm with these ids (any group, system groups included, may be a subgroup). */
function potentialSubgroups(groups: readonly UserGroupDict[], ids: number[]): number[] {
  const wanted = [...new Set(ids)];
  const missing = wanted.find((sub) => !groups.some((g) => g.id === sub));
  if (missing !== undefined) throw new ApiError(`Invalid user group ID: ${missing}`);
  return wanted;
}

export async function updateUserGroupSubgroups(ctx: ActionContext, id: number, add: number[], remove: number[]): Promise<void> {
  requireGroupEditor(ctx);
  if (add.length === 0 && remove.length === 0) throw new ApiError(NOTHING_TO_DO);
  if (add.length > 0) {
    const groups = await realmGroups(ctx);
    const subgroups = potentialSubgroups(groups, add);
    const group = accessGroupForChange(groups, ctx.actor, id);
    const already = subgroups.find((sub) => group.direct_subgroup_ids.includes(sub));
    if (already !== undefined) throw new ApiError(`User group ${already} is already a subgroup of this group.`);
    // A cycle would follow if this group is one of them, or sits anywhere below one of them.
    if (subgroups.some((sub) => sub === id || recursiveSubgroupIds(groups, sub).includes(id))) {
      throw new ApiError(`User group ${id} is already a subgroup of one of the passed subgroups.`);
    }
    await ctx.tx.insertInto('user_group_subgroup').values(subgroups.map((subgroup_id) => ({ supergroup_id: id, subgroup_id }))).execute();
    await announceGroupChange(ctx, { op: 'add_subgroups', group_id: id, direct_subgroup_ids: [...subgroups].sort((a, b) => a - b) });
  }
  if (remove.length > 0) {
    const groups = await realmGroups(ctx);
    const subgroups = potentialSubgroups(groups, remove);
    const group = accessGroupForChange(groups, ctx.actor, id);
    const absent = subgroups.find((sub) => !group.direct_subgroup_ids.includes(sub));
    if (absent !== undefined) throw new ApiError(`User group ${absent} is not a subgroup of this group.`);
    await ctx.tx.deleteFrom('user_group_subgroup').where('supergroup_id', '=', id).where('subgroup_id', 'in', subgroups).execute();
    await announceGroupChange(ctx, { op: 'remove_subgroups', group_id: id, direct_subgroup_ids: [...subgroups].sort((a, b) => a - b) });
  }
}

