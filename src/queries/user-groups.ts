// User groups as GET /user_groups lists them. System groups take their members from roles:
// each one's direct members hold exactly its role, and it contains the next group up. Other
// groups keep their direct members and subgroups in user_group_member and user_group_subgroup.
import type { DbOrTx, RealmRow, UserGroupRow, UserRow } from '../db/schema.js';
import { realmSettings } from '../lib/realm-settings.js';
import { isNewMember, Role } from '../lib/roles.js';

export interface UserGroupDict {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_mention_group: number;
}

type Member = Pick<UserRow, 'id' | 'role' | 'date_joined'>;

/** For each system group: who its direct members are, and which system group it directly contains. */
const SYSTEM_GROUP_SHAPE: Record<string, { holds: (u: Member, isNew: boolean) => boolean; contains: string | null }> = {
  'role:internet': { holds: () => false, contains: 'role:everyone' },
  'role:everyone': { holds: (u) => u.role === Role.GUEST, contains: 'role:members' },
  'role:members': { holds: (u) => u.role === Role.MEMBER, contains: 'role:fullmembers' },
  'role:fullmembers': { holds: (u, isNew) => u.role === Role.MEMBER && !isNew, contains: 'role:moderators' },
  'role:moderators': { holds: (u) => u.role === Role.MODERATOR, contains: 'role:administrators' },
  'role:administrators': { holds: (u) => u.role === Role.ADMINISTRATOR, contains: 'role:owners' },
  'role:owners': { holds: (u) => u.role === Role.OWNER, contains: null },
  'role:nobody': { holds: () => false, contains: null },
};

export async function listUserGroups(db: DbOrTx, realm: RealmRow, now: number): Promise<UserGroupDict[]> {
  const groups: UserGroupRow[] = await db.selectFrom('user_group').selectAll().where('realm_id', '=', realm.id).orderBy('id').execute();
  const users = await db
    .selectFrom('user_profile')
    .select(['id', 'role', 'date_joined'])
    .where('realm_id', '=', realm.id)
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
  const explicit = groups.length === 0 ? [] : await db
    .selectFrom('user_group_member')
    .innerJoin('user_profile', 'user_profile.id', 'user_group_member.user_id')
    .select(['user_group_member.group_id', 'user_group_member.user_id'])
    .where('user_group_member.group_id', 'in', groups.map((g) => g.id))
    .where('user_profile.is_active', '=', 1)
    .execute();
  const nested = groups.length === 0 ? [] : await db
    .selectFrom('user_group_subgroup')
    .select(['supergroup_id', 'subgroup_id'])
    .where('supergroup_id', 'in', groups.map((g) => g.id))
    .execute();
  const waitingDays = realmSettings(realm).waiting_period_threshold;
  const idByName = new Map(groups.map((g) => [g.name, g.id]));
  // Rows written before the setting existed: the reference's defaults.
  const defaultMention = (system: boolean) => idByName.get(system ? 'role:nobody' : 'role:everyone') ?? 0;
  return groups.map((group) => {
    const shape = group.is_system_group ? SYSTEM_GROUP_SHAPE[group.name] : undefined;
    const members = shape
      ? users.filter((u) => shape.holds(u, isNewMember(u, waitingDays, now))).map((u) => u.id)
      : explicit.filter((row) => row.group_id === group.id).map((row) => row.user_id).sort((a, b) => a - b);
    const subgroup = shape?.contains ? idByName.get(shape.contains) : undefined;
    const subgroups = shape
      ? (subgroup === undefined ? [] : [subgroup])
      : nested.filter((row) => row.supergroup_id === group.id).map((row) => row.subgroup_id).sort((a, b) => a - b);
    return {
      id: group.id,
      name: group.name,
      description: group.description,
      members,
      direct_subgroup_ids: subgroups,
      is_system_group: Boolean(group.is_system_group),
      can_mention_group: group.can_mention_group_id ?? defaultMention(Boolean(group.is_system_group)),
    };
  });
}

/** Each system group's id by name (role:everyone, role:administrators, ...). */
export async function systemGroupIds(db: DbOrTx, realmId: number): Promise<Map<string, number>> {
  const rows = await db.selectFrom('user_group').select(['id', 'name']).where('realm_id', '=', realmId).where('is_system_group', '=', 1).execute();
  return new Map(rows.map((row) => [row.name, row.id]));
}
