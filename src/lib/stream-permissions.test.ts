import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Role } from './roles.js';
import { canAddSubscribers, canCreateStreams, canRemoveSubscribers, canSubscribeOthers, controlsUser, groupIncludes } from './stream-permissions.js';

type Person = { id: number; role: number };
const owner: Person = { id: 1, role: Role.OWNER };
const admin: Person = { id: 2, role: Role.ADMINISTRATOR };
const moderator: Person = { id: 3, role: Role.MODERATOR };
const member: Person = { id: 4, role: Role.MEMBER };
const guest: Person = { id: 5, role: Role.GUEST };
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
  it('derives role-based system group membership from the role', () => {
    assert.equal(groupIncludes(system('role:administrators'), admin), true);
    assert.equal(groupIncludes(system('role:administrators'), owner), true);
    assert.equal(groupIncludes(system('role:administrators'), moderator), false);
    assert.equal(groupIncludes(system('role:moderators'), moderator), true);
    assert.equal(groupIncludes(system('role:members'), member), true);
    assert.equal(groupIncludes(system('role:members'), guest), false);
    assert.equal(groupIncludes(system('role:everyone'), guest), true);
    assert.equal(groupIncludes(system('role:internet'), guest), true);
    assert.equal(groupIncludes(system('role:nobody'), owner), false);
  });

  it('uses the member list for other groups', () => {
    const designers = { name: 'designers', is_system_group: 0 };
    assert.equal(groupIncludes(designers, member, [4, 9]), true);
    assert.equal(groupIncludes(designers, admin, [4, 9]), false);
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
