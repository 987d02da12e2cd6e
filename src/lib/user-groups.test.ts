import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../errors.js';
import { Role } from './roles.js';
import { checkCanMentionGroup, checkUserGroupName, mayChangeGroup, recursiveMemberIds, recursiveSubgroupIds } from './user-groups.js';

const fails = (work: () => unknown, msg: string) => assert.throws(work, (e: unknown) => e instanceof ApiError && e.message === msg);

describe('user group rules', () => {
  it('checks names as the reference does', () => {
    assert.equal(checkUserGroupName('backend'), 'backend');
    assert.equal(checkUserGroupName('x'.repeat(100)), 'x'.repeat(100));
    fails(() => checkUserGroupName(' '), "User group name can't be empty!");
    fails(() => checkUserGroupName('é'.repeat(101)), 'User group name cannot exceed 100 characters.');
    fails(() => checkUserGroupName('@team'), "User group name cannot start with '@'.");
    fails(() => checkUserGroupName('channel:x'), "User group name cannot start with 'channel:'.");
    // Only at the start: a prefix inside the name is fine.
    assert.equal(checkUserGroupName('team role:x'), 'team role:x');
  });

  it('lets moderators and above and direct members change a group, never a system group', () => {
    const group = { id: 1, members: [7], direct_subgroup_ids: [], is_system_group: false };
    assert.equal(mayChangeGroup({ id: 7, role: Role.MEMBER }, group), true);
    assert.equal(mayChangeGroup({ id: 8, role: Role.MEMBER }, group), false);
    assert.equal(mayChangeGroup({ id: 8, role: Role.MODERATOR }, group), true);
    assert.equal(mayChangeGroup({ id: 7, role: Role.GUEST }, group), false);
    assert.equal(mayChangeGroup({ id: 8, role: Role.OWNER }, { ...group, is_system_group: true }), false);
  });

  it('refuses role:internet and role:owners for can_mention_group, only as system groups', () => {
    fails(() => checkCanMentionGroup({ name: 'role:internet', is_system_group: true }), "'can_mention_group' setting cannot be set to 'role:internet' group.");
    fails(() => checkCanMentionGroup({ name: 'role:owners', is_system_group: true }), "'can_mention_group' setting cannot be set to 'role:owners' group.");
    checkCanMentionGroup({ name: 'role:nobody', is_system_group: true });
    checkCanMentionGroup({ name: 'role:everyone', is_system_group: true });
  });

  it('walks subgroups and their members, whatever the order and even past a cycle', () => {
    const groups = [
      { id: 1, members: [10], direct_subgroup_ids: [2] },
      { id: 2, members: [20, 10], direct_subgroup_ids: [3] },
      { id: 3, members: [30], direct_subgroup_ids: [1] },
      { id: 4, members: [], direct_subgroup_ids: [] },
    ];
    assert.deepEqual(recursiveSubgroupIds(groups, 1), [2, 3]);
    assert.deepEqual(recursiveSubgroupIds(groups, 4), []);
    assert.deepEqual(recursiveMemberIds(groups, 2), [10, 20, 30]);
    assert.deepEqual(recursiveMemberIds(groups, 99), []);
  });
});
