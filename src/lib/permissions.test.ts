import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Role } from './roles.js';
import { canAccessStreamHistory, canReadStreamMessage, canSeeStream, canSubscribeSelf, passesPolicy, requireAdmin } from './permissions.js';

const member = { role: Role.MEMBER };
const admin = { role: Role.ADMINISTRATOR };
const guest = { role: Role.GUEST };
const open = { invite_only: 0, history_public_to_subscribers: 1, is_web_public: 0 };
const privateShared = { invite_only: 1, history_public_to_subscribers: 1, is_web_public: 0 };
const privateProtected = { invite_only: 1, history_public_to_subscribers: 0, is_web_public: 0 };

describe('stream permissions', () => {
  it('shows public streams to members, private ones to subscribers and administrators', () => {
    assert.equal(canSeeStream(member, open, false), true);
    assert.equal(canSeeStream(guest, open, false), false);
    assert.equal(canSeeStream(guest, open, true), true);
    assert.equal(canSeeStream(member, privateShared, false), false);
    assert.equal(canSeeStream(admin, privateShared, false), true);
    assert.equal(canSeeStream(member, privateShared, true), true);
  });

  it('opens history by stream kind and subscription', () => {
    assert.equal(canAccessStreamHistory(member, open, false), true);
    assert.equal(canAccessStreamHistory(guest, open, false), false);
    assert.equal(canAccessStreamHistory(guest, open, true), true);
    assert.equal(canAccessStreamHistory(admin, privateShared, false), false);
    assert.equal(canAccessStreamHistory(member, privateShared, true), true);
    assert.equal(canAccessStreamHistory(member, privateProtected, true), false);
  });

  it('opens single stream messages only to current subscribers, except public ones to non-guests', () => {
    const webPublic = { ...open, is_web_public: 1 };
    assert.equal(canReadStreamMessage(member, open, false, false), true);
    assert.equal(canReadStreamMessage(guest, open, false, true), false);
    assert.equal(canReadStreamMessage(guest, webPublic, false, false), false);
    assert.equal(canReadStreamMessage(guest, webPublic, true, false), true);
    assert.equal(canReadStreamMessage(member, privateShared, true, false), true);
    assert.equal(canReadStreamMessage(member, privateShared, false, true), false);
    assert.equal(canReadStreamMessage(admin, privateShared, false, false), false);
    assert.equal(canReadStreamMessage(member, privateProtected, true, false), false);
    assert.equal(canReadStreamMessage(member, privateProtected, true, true), true);
    assert.equal(canReadStreamMessage(member, privateProtected, false, true), false);
  });

  it('lets members but not guests join public streams', () => {
    assert.equal(canSubscribeSelf(member, open), true);
    assert.equal(canSubscribeSelf(guest, open), false);
    assert.equal(canSubscribeSelf(admin, privateShared), false);
  });
});

describe('requireAdmin', () => {
  it('passes administrators and owners, and answers UNAUTHORIZED_PRINCIPAL to everyone else', () => {
    requireAdmin({ role: Role.OWNER });
    requireAdmin({ role: Role.ADMINISTRATOR });
    for (const role of [Role.MODERATOR, Role.MEMBER, Role.GUEST]) {
      assert.throws(() => requireAdmin({ role }), { message: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    }
  });
});

describe('passesPolicy', () => {
  const NOW = 1_700_000_000;
  const joined = (role: number, daysAgo: number) => ({ role, date_joined: NOW - daysAgo * 86_400 });

  it('lets full members through policy 3: members past the waiting period, moderators and above at once, never guests', () => {
    assert.equal(passesPolicy(joined(Role.MEMBER, 11), 3, 10, NOW), true);
    assert.equal(passesPolicy(joined(Role.MEMBER, 10), 3, 10, NOW), true);
    assert.equal(passesPolicy(joined(Role.MEMBER, 9), 3, 10, NOW), false);
    assert.equal(passesPolicy(joined(Role.MODERATOR, 0), 3, 10, NOW), true);
    assert.equal(passesPolicy(joined(Role.ADMINISTRATOR, 0), 3, 10, NOW), true);
    assert.equal(passesPolicy(joined(Role.GUEST, 100), 3, 10, NOW), false);
  });

  it('answers the other policies by role alone', () => {
    const table: Array<[number, number, boolean]> = [
      [1, Role.MEMBER, true], [1, Role.GUEST, false],
      [2, Role.ADMINISTRATOR, true], [2, Role.MODERATOR, false],
      [4, Role.MODERATOR, true], [4, Role.MEMBER, false],
      [5, Role.GUEST, true], [6, Role.OWNER, false],
    ];
    for (const [policy, role, expected] of table) assert.equal(passesPolicy(joined(role, 0), policy, 10, NOW), expected, `policy ${policy}, role ${role}`);
  });
});
