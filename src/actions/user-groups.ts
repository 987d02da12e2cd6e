// Creating, changing and deleting user groups. Who may: the realm's user_group_edit_policy for
// anyone to touch groups at all, and then (for an existing group) moderators, administrators and
// the group's direct members; system groups are never edited. Every change is announced to the
// realm's active users once committed.
import { ApiError } from '../errors.js';
import { requireHuman, requireNotGuest } from '../lib/permissions.js';
import { realmSettings } from '../lib/realm-settings.js';
import {
  canEditUserGroups,
  checkCanMentionGroup,
  checkUserGroupName,
  INSUFFICIENT_PERMISSION,
  INVALID_USER_GROUP,
  mayChangeGroup,
} from '../lib/user-groups.js';
import { listUserGroups, type UserGroupDict } from '../queries/user-groups.js';
import { activeUserIds, getUsersByIds } from '../queries/users.js';
import type { ActionContext } from './context.js';

/** The reference's require_user_group_edit_permission: people (not guests, not bots) the policy allows. */
export function requireGroupEditor(ctx: ActionContext): void {
  requireNotGuest(ctx.actor);
  requireHuman(ctx.actor);
  const settings = realmSettings(ctx.realm);
  if (!canEditUserGroups(ctx.actor, settings.user_group_edit_policy, settings.waiting_period_threshold, ctx.now)) {
    throw new ApiError(INSUFFICIENT_PERMISSION);
  }
}

export function realmGroups(ctx: ActionContext): Promise<UserGroupDict[]> {
  return listUserGroups(ctx.tx, ctx.realm, ctx.now);
}

/** The group to change, if the actor may change it (see requireGroupEditor for the realm-wide check). */
export function accessGroupForChange(groups: readonly UserGroupDict[], actor: ActionContext['actor'], id: number): UserGroupDict {
  const group = groups.find((g) => g.id === id);
  if (!group) throw new ApiError(INVALID_USER_GROUP);
  if (!mayChangeGroup(actor, group)) throw new ApiError(INSUFFICIENT_PERMISSION);
  return group;
}

/** Active users of the realm with these ids, in the order given, duplicates dropped. */
export async function accessUsersByIds(ctx: ActionContext, ids: number[]): Promise<number[]> {
  const wanted = [...new Set(ids)];
  const found = new Set((await getUsersByIds(ctx.tx, ctx.realm.id, wanted)).filter((u) => u.is_active).map((u) => u.id));
  const missing = wanted.find((id) => !found.has(id));
  // Deactivated accounts belong to no group here, so they are as unknown as another realm's users.
  if (missing !== undefined) throw new ApiError(`Invalid user ID: ${missing}`);
  return wanted;
}

function settingGroup(groups: readonly UserGroupDict[], id: number): UserGroupDict {
  const group = groups.find((g) => g.id === id);
  if (!group) throw new ApiError(INVALID_USER_GROUP);
  checkCanMentionGroup(group);
  return group;
}

function nameTaken(groups: readonly UserGroupDict[], name: string): ApiError | undefined {
  return groups.some((g) => g.name === name) ? new ApiError(`User group '${name}' already exists.`) : undefined;
}

export async function announceGroupChange(ctx: ActionContext, event: Record<string, unknown>): Promise<void> {
  ctx.events.send({ type: 'user_group', ...event }, await activeUserIds(ctx.tx, ctx.realm.id));
}

export interface NewUserGroup {
  name: string;
  description: string;
  members: number[];
  canMentionGroup?: number;
}

/** Creates the group; returns its id (the reference answers with it from feature level 317). */
export async function checkAddUserGroup(ctx: ActionContext, spec: NewUserGroup): Promise<number> {
  requireGroupEditor(ctx);
  const members = (await accessUsersByIds(ctx, spec.members)).sort((a, b) => a - b);
  const name = checkUserGroupName(spec.name);
  const groups = await realmGroups(ctx);
  const canMention = spec.canMentionGroup === undefined ? groups.find((g) => g.name === 'role:everyone')! : settingGroup(groups, spec.canMentionGroup);
  const taken = nameTaken(groups, name);
  if (taken) throw taken;
  const { id } = await ctx.tx
    .insertInto('user_group')
    .values({ realm_id: ctx.realm.id, name, description: spec.description, is_system_group: 0, can_mention_group_id: canMention.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (members.length > 0) await ctx.tx.insertInto('user_group_member').values(members.map((user_id) => ({ group_id: id, user_id }))).execute();
  const group = { name, members, description: spec.description, id, is_system_group: false, direct_subgroup_ids: [], can_mention_group: canMention.id };
  await announceGroupChange(ctx, { op: 'add', group });
  return id;
}

export interface UserGroupChanges {
  name?: string;
  description?: string;
  canMentionGroup?: number;
}

export async function updateUserGroup(ctx: ActionContext, id: number, changes: UserGroupChanges): Promise<void> {
  requireGroupEditor(ctx);
  if (changes.name === undefined && changes.description === undefined && changes.canMentionGroup === undefined) {
    throw new ApiError('No new data supplied');
  }
  const groups = await realmGroups(ctx);
  const group = accessGroupForChange(groups, ctx.actor, id);
  const where = ctx.tx.updateTable('user_group').where('realm_id', '=', ctx.realm.id).where('id', '=', id);
  // One event per field that changes, all to the same audience, read once.
  const updates: Array<Record<string, unknown>> = [];
  if (changes.name !== undefined && changes.name !== group.name) {
    const name = checkUserGroupName(changes.name);
    const taken = nameTaken(groups, name);
    if (taken) throw taken;
    await where.set({ name }).execute();
    updates.push({ name });
  }
  if (changes.description !== undefined && changes.description !== group.description) {
    await where.set({ description: changes.description }).execute();
    updates.push({ description: changes.description });
  }
  if (changes.canMentionGroup !== undefined && changes.canMentionGroup !== group.can_mention_group) {
    const setting = settingGroup(groups, changes.canMentionGroup);
    await where.set({ can_mention_group_id: setting.id }).execute();
    updates.push({ can_mention_group: setting.id });
  }
  if (updates.length === 0) return;
  const recipients = await activeUserIds(ctx.tx, ctx.realm.id);
  for (const data of updates) ctx.events.send({ type: 'user_group', op: 'update', group_id: id, data }, recipients);
}

export async function deleteUserGroup(ctx: ActionContext, id: number): Promise<void> {
  requireGroupEditor(ctx);
  const groups = await realmGroups(ctx);
  accessGroupForChange(groups, ctx.actor, id);
  // The reference keeps a group that another group's setting names (the database refuses); say so.
  if (groups.some((g) => g.id !== id && g.can_mention_group === id)) throw new ApiError('Cannot delete user group in use.');
  await ctx.tx.deleteFrom('user_group_member').where('group_id', '=', id).execute();
  await ctx.tx.deleteFrom('user_group_subgroup').where((eb) => eb.or([eb('supergroup_id', '=', id), eb('subgroup_id', '=', id)])).execute();
  await ctx.tx.deleteFrom('user_group').where('realm_id', '=', ctx.realm.id).where('id', '=', id).execute();
  await announceGroupChange(ctx, { op: 'remove', group_id: id });
}
