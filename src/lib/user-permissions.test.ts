import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Role } from './roles.js';
import { canAdminUser, isLastOwner } from './user-permissions.js';

describe('user administration', () => {
  const admin = { id: 2, role: Role.ADMINISTRATOR };
  const member = { id: 4, role: Role.MEMBER };
  const person = { is_bot: 0, bot_owner_id: null };
  const ownBot = { is_bot: 1, bot_owner_id: 4 };
  const otherBot = { is_bot: 1, bot_owner_id: 2 };

  it('lets administrators manage anyone and members their own bots', () => {
    assert.equal(canAdminUser(admin, person), true);
    assert.equal(canAdminUser(admin, otherBot), true);
    assert.equal(canAdminUser(member, person), false);
    assert.equal(canAdminUser(member, ownBot), true);
    assert.equal(canAdminUser(member, otherBot), false);
    assert.equal(canAdminUser({ id: 3, role: Role.MODERATOR }, person), false);
  });

  it('knows the last human owner', () => {
    assert.equal(isLastOwner({ role: Role.OWNER, is_bot: 0 }, 1), true);
    assert.equal(isLastOwner({ role: Role.OWNER, is_bot: 0 }, 2), false);
    assert.equal(isLastOwner({ role: Role.OWNER, is_bot: 1 }, 1), false);
    assert.equal(isLastOwner({ role: Role.ADMINISTRATOR, is_bot: 0 }, 1), false);
  });
});
