import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserRow } from '../types/rows.js';
import { Role } from './roles.js';
import { apiEmailOf, avatarUrl, canSeeDeliveryEmail, clientDerivesAvatar, emailNamesUser, gravatarUrl, placeholderUserId, setGravatarEnabled } from './user-format.js';

const URL_WITH_PORT = 'http://Chat.Example.org:9991';

function user(id: number, visibility: number, extra: Partial<UserRow> = {}): UserRow {
  const settings = JSON.stringify({ email_address_visibility: visibility });
  const base = { id, realm_id: 1, is_bot: 0, settings, delivery_email: `real${id}@example.net`, avatar_source: 'G', avatar_version: 1 };
  const row = { ...base, ...extra } as UserRow;
  return { ...row, email: extra.email ?? apiEmailOf(row, URL_WITH_PORT) };
}

describe('addresses and their visibility', () => {
  it('makes placeholders from the host name, without the port, and reads back only its own', () => {
    assert.equal(apiEmailOf(user(7, 3), URL_WITH_PORT), 'user7@chat.example.org');
    assert.equal(apiEmailOf(user(7, 1), URL_WITH_PORT), 'real7@example.net');
    assert.equal(apiEmailOf(user(7, 4, { is_bot: 1 }), URL_WITH_PORT), 'real7@example.net');
    assert.equal(placeholderUserId(' USER7@Chat.Example.org ', URL_WITH_PORT), 7);
    assert.equal(placeholderUserId('user7@chat.example.org:9991', URL_WITH_PORT), undefined);
    assert.equal(placeholderUserId('user7@other.example.org', URL_WITH_PORT), undefined);
    assert.equal(placeholderUserId('userx@chat.example.org', URL_WITH_PORT), undefined);
    assert.equal(placeholderUserId('user12345678901@chat.example.org', URL_WITH_PORT), undefined);
  });

  it('lets each role see what the setting allows, and everyone their own and bots\' addresses', () => {
    const viewers = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST].map((role, i) => ({ id: 100 + i, role }));
    const seen = (visibility: number) => viewers.map((v) => canSeeDeliveryEmail(v, user(1, visibility)));
    assert.deepEqual(seen(1), [true, true, true, true, true]);
    assert.deepEqual(seen(2), [true, true, true, true, false]);
    assert.deepEqual(seen(3), [true, true, false, false, false]);
    assert.deepEqual(seen(4), [false, false, false, false, false]);
    assert.deepEqual(seen(5), [true, true, true, false, false]);
    assert.equal(canSeeDeliveryEmail({ id: 1, role: Role.GUEST }, user(1, 4)), true);
    assert.equal(canSeeDeliveryEmail({ id: 2, role: Role.GUEST }, user(1, 4, { is_bot: 1 })), true);
  });

  it('lets an address name a user only as far as the viewer may know it', () => {
    const target = user(3, 3);
    const admin = { id: 9, role: Role.ADMINISTRATOR };
    const member = { id: 8, role: Role.MEMBER };
    assert.equal(emailNamesUser(admin, target, 'REAL3@example.net', URL_WITH_PORT), true);
    assert.equal(emailNamesUser(member, target, 'real3@example.net', URL_WITH_PORT), false);
    assert.equal(emailNamesUser(member, target, 'user3@chat.example.org', URL_WITH_PORT), true);
    assert.equal(emailNamesUser(member, user(4, 1), 'user4@chat.example.org', URL_WITH_PORT), true);
    assert.equal(emailNamesUser(member, target, 'user4@chat.example.org', URL_WITH_PORT), false);
  });

  it('with Gravatar on, derives gravatars from the API email, and leaves them to the client only for public addresses', (t) => {
    setGravatarEnabled(true);
    t.after(() => setGravatarEnabled(false));
    assert.equal(clientDerivesAvatar(user(3, 1), true), true);
    assert.equal(clientDerivesAvatar(user(3, 3), true), false);
    assert.equal(avatarUrl(user(3, 3), false), gravatarUrl('user3@chat.example.org', 1));
    assert.equal(avatarUrl(user(3, 3), true), gravatarUrl('user3@chat.example.org', 1));
    assert.equal(avatarUrl(user(3, 1), true), null);
    assert.equal(avatarUrl(user(3, 1), false), gravatarUrl('real3@example.net', 1));
  });

  it('without Gravatar (the default), points every user at a Confab URL, client_gravatar or not', () => {
    setGravatarEnabled(false);
    for (const visibility of [1, 3]) {
      for (const clientGravatar of [true, false]) {
        assert.equal(avatarUrl(user(3, visibility, { avatar_version: 4 }), clientGravatar), '/user_avatars/1/3.png?version=4');
        assert.equal(clientDerivesAvatar(user(3, visibility), clientGravatar), false);
      }
    }
    assert.equal(avatarUrl(user(5, 1, { avatar_source: 'U', avatar_version: 2 }), true), '/user_avatars/1/5.png?version=2');
  });

  it('with Gravatar on, still points uploaded avatars at Confab', (t) => {
    setGravatarEnabled(true);
    t.after(() => setGravatarEnabled(false));
    assert.equal(avatarUrl(user(5, 1, { avatar_source: 'U', avatar_version: 2 }), true), '/user_avatars/1/5.png?version=2');
    assert.equal(clientDerivesAvatar(user(5, 1, { avatar_source: 'U' }), true), false);
  });
});
