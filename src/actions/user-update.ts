// PATCH /users/{user_id}: an administrator changes another account's name, role or custom
// profile values. Everything is checked inside one transaction, so a refused part changes nothing.
import type { RealmRow, UserRow } from '../db/schema.js';
import { ApiError, UnauthorizedPrincipalError } from '../errors.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isAdmin, isNewMember, isOwner, Role } from '../lib/roles.js';
import type { ProfileDataEntry } from '../lib/profile-values.js';
import { isLastOwner } from '../lib/user-permissions.js';
import { systemGroupIds } from '../queries/user-groups.js';
import { activeUserIds, countActiveHumanOwners } from '../queries/users.js';
import type { ActionContext, SystemContext } from './context.js';
import { clearProfileValues, setProfileValues } from './profile-data.js';
import { checkFullName } from './user-create.js';
import { accessUserForAdmin, botAudience } from './user-deactivate.js';

/** The system group whose direct members hold each role. */
const ROLE_GROUP: Record<number, string> = {
  [Role.OWNER]: 'role:owners',
  [Role.ADMINISTRATOR]: 'role:administrators',
  [Role.MODERATOR]: 'role:moderators',
  [Role.MEMBER]: 'role:members',
  [Role.GUEST]: 'role:everyone',
};

/** Renames the user; everyone hears of it, and a bot's owner through realm_bot as well. */
export async function doChangeFullName(ctx: SystemContext, realm: RealmRow, target: UserRow, requested: string): Promise<void> {
  const fullName = checkFullName(requested);
  if (fullName === target.full_name) return;
  await ctx.tx.updateTable('user_profile').set({ full_name: fullName }).where('id', '=', target.id).execute();
  const person = { user_id: target.id, full_name: fullName };
  ctx.events.send({ type: 'realm_user', op: 'update', person }, await activeUserIds(ctx.tx, realm.id));
  if (target.is_bot) ctx.events.send({ type: 'realm_bot', op: 'update', bot: person }, await botAudience(ctx, realm, target));
}

/**
 * Gives the user a new role. Role groups follow roles, so the user leaves the old role's group and
 * joins the new one's; a member moving in or out of the member role also leaves or joins full members.
 */
export async function doChangeUserRole(ctx: SystemContext, realm: RealmRow, target: UserRow, role: number, now: number): Promise<void> {
  if (target.role === role) return;
  await ctx.tx.updateTable('user_profile').set({ role }).where('id', '=', target.id).execute();
  const everyone = await activeUserIds(ctx.tx, realm.id);
  ctx.events.send({ type: 'realm_user', op: 'update', person: { user_id: target.id, role } }, everyone);
  // Group lists count active users only: a deactivated user's groups change silently.
  if (!target.is_active) return;
  const groups = await systemGroupIds(ctx.tx, realm.id);
  const members = (op: string, name: string) => {
    const groupId = groups.get(name);
    if (groupId !== undefined) ctx.events.send({ type: 'user_group', op, group_id: groupId, user_ids: [target.id] }, everyone);
  };
  members('remove_members', ROLE_GROUP[target.role]!);
  members('add_members', ROLE_GROUP[role]!);
  const waitingDays = realmSettings(realm).waiting_period_threshold;
  const fullMember = (r: number) => r === Role.MEMBER && !isNewMember({ role: r, date_joined: target.date_joined }, waitingDays, now);
  if (fullMember(target.role) && !fullMember(role)) members('remove_members', 'role:fullmembers');
  if (!fullMember(target.role) && fullMember(role)) members('add_members', 'role:fullmembers');
}

export interface UserChanges {
  fullName?: string;
  role?: number;
  profileData?: ProfileDataEntry[];
}

export async function checkUpdateUser(ctx: ActionContext, userId: number, changes: UserChanges): Promise<void> {
  const target = await accessUserForAdmin(ctx, userId, { allowDeactivated: true, allowBots: true });
  if (changes.role !== undefined && changes.role !== target.role) {
    // Only owners make or unmake owners; a bot's owner who is no administrator changes no roles.
    if ((changes.role === Role.OWNER || isOwner(target)) && !isOwner(ctx.actor)) {
      throw new UnauthorizedPrincipalError('Must be an organization owner');
    }
    if (!isAdmin(ctx.actor)) throw new UnauthorizedPrincipalError();
    if (isLastOwner(target, await countActiveHumanOwners(ctx.tx, ctx.realm.id))) {
      throw new ApiError('The owner permission cannot be removed from the only organization owner.');
    }
    await doChangeUserRole(ctx, ctx.realm, target, changes.role, ctx.now);
  }
  if (changes.fullName !== undefined && changes.fullName !== target.full_name && changes.fullName.trim() !== '') {
    // The organization's lock on name changes binds users, not an administrator acting for them.
    await doChangeFullName(ctx, ctx.realm, target, changes.fullName);
  }
  if (changes.profileData !== undefined) {
    // An empty value clears the field; the rest are set.
    const cleared = changes.profileData.filter((e) => e.value === null || e.value.length === 0).map((e) => e.id);
    await clearProfileValues(ctx, target, cleared);
    const set = changes.profileData.filter((e) => e.value !== null && e.value.length > 0) as Array<{ id: number; value: string | number[] }>;
    await setProfileValues(ctx, target, set);
  }
}
