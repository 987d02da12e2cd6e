// Group membership that follows from an account's role and activity: when a user is created or
// reactivated, everyone hears which groups they (again) belong to directly.
import type { RealmRow, UserRow } from '../db/schema.js';
import { listUserGroups } from '../queries/user-groups.js';
import type { SystemContext } from './context.js';

export async function announceGroupMemberships(ctx: SystemContext, realm: RealmRow, user: Pick<UserRow, 'id'>, audience: number[]): Promise<void> {
  for (const group of await listUserGroups(ctx.tx, realm, ctx.now)) {
    if (!group.members.includes(user.id)) continue;
    ctx.events.send({ type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [user.id] }, audience);
  }
}
