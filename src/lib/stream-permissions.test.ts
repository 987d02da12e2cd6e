import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Role } from './roles.js';
import { canAddSubscribers, canCreateStreams, canRemoveSubscribers, canSubscribeOthers, controlsUser, groupIncludes } from './stream-permissions.js';

type Person = { id: number; role: number; date_joined: number };
const NOW = 1_700_000_000;
const DAY = 86_400;
/** Everyone here joined 30 days before NOW, except the new member. */
const owner: Person = { id: 1, role: Role.OWNER, date_joined: NOW - 30 * DAY };
const admin: Person = { id: 2, role: Role.ADMINISTRATOR, date_joined: NOW - 30 * DAY };
const moderator: Person = { id: 3, role: Role.MODERATOR, date_joined: NOW - 30 * DAY };
const member: Person = { id: 4, role: Role.MEMBER, date_joined: NOW - 30 * DAY };
const guest: Person = { id: 5, role: Role.GUEST, date_joined: NOW - 30 * DAY };
const newMember: Person = { id: 6, role: Role.MEMBER, date_joined: NOW - 2 * DAY };
const open = { invite_only: 0, history_public_to_subscribers: 1, is_web_public: 0 };
const web = { invite_only: 0, history_public_to_subscribers: 1, is_web_public: 1 };
const closed = { invite_only: 1, history_public_to_subscribers: 0, is_web_public: 0 };
const system = (name: string) => ({ name, is_system_group: 1 });

describe('stream permissions for subscribing', () => {
  it('lets members and above create streams and subscribe others, not guests', () => {
    for (const user of [owner, admin, moderator, member]) {
      assert.equal(canCreateStreams(user), true);
      assert.equal(canSubscribeOthers(user), true);
    }
    assert.equal(canCreateStreams(guest), false);
    assert.equal(canSubscribeOthers(guest), false);
  });

  it('opens existing streams by kind and subscription; administrators get no pass to private ones', () => {
    const table: Array<[Person, typeof open, boolean, boolean]> = [
      [member, open, false, true],
      [guest, open, false, false],
      [guest, open, true, true],
      [guest, web, false, true],
      [member, closed, false, false],
      [admin, closed, false, false],
      [member, closed, true, true],
    ];
    for (const [user, stream, subscribed, expected] of table) {
      assert.equal(canAddSubscribers(user, stream, subscribed), expected, JSON.stringify([user, stream, subscribed]));
    }
  });
});

describe('user groups and removing subscribers', () => {
  const includes = (group: { name: string; is_system_group: number }, user: Person, memberIds: number[] = [], waitingDays = 10) =>
    groupIncludes(group, user, memberIds, waitingDays, NOW);

  it('derives role-based system group membership from the role', () => {
    assert.equal(includes(system('role:administrators'), admin), true);
    assert.equal(includes(system('role:administrators'), owner), true);
    assert.equal(includes(system('role:administrators'), moderator), false);
    assert.equal(includes(system('role:moderators'), moderator), true);
    assert.equal(includes(system('role:members'), member), true);
    assert.equal(includes(system('role:members'), newMember), true);
    assert.equal(includes(system('role:members'), guest), false);
    assert.equal(includes(system('role:everyone'), guest), true);
    assert.equal(includes(system('role:internet'), guest), true);
    assert.equal(includes(system('role:nobody'), owner), false);
  });

  it('counts members as full members once the waiting period has passed, and moderators and above always', () => {
    assert.equal(includes(system('role:fullmembers'), member), true);
    assert.equal(includes(system('role:fullmembers'), newMember), false);
    assert.equal(includes(system('role:fullmembers'), newMember, [], 2), true);
    assert.equal(includes(system('role:fullmembers'), { ...moderator, date_joined: NOW }), true);
    assert.equal(includes(system('role:fullmembers'), guest), false);
  });

  it('uses the member list for other groups', () => {
    const designers = { name: 'designers', is_system_group: 0 };
    assert.equal(includes(designers, member, [4, 9]), true);
    assert.equal(includes(designers, admin, [4, 9]), false);
  });

  it('needs both sight of the stream and the group', () => {
    assert.equal(canRemoveSubscribers(admin, closed, false, true), true);
    assert.equal(canRemoveSubscribers(member, closed, false, true), false);
    assert.equal(canRemoveSubscribers(member, open, false, false), false);
    assert.equal(canRemoveSubscribers(guest, open, false, true), false);
    assert.equal(canRemoveSubscribers(guest, open, true, true), true);
  });

  it('treats oneself and one\'s own bots as no one else', () => {
    assert.equal(controlsUser(member, { id: 4, is_bot: 0, bot_owner_id: null }), true);
    assert.equal(controlsUser(member, { id: 8, is_bot: 1, bot_owner_id: 4 }), true);
    assert.equal(controlsUser(member, { id: 9, is_bot: 1, bot_owner_id: 1 }), false);
    assert.equal(controlsUser(member, { id: 6, is_bot: 0, bot_owner_id: 4 }), false);
  });
});
