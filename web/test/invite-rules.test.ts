// The invitation dialog's choices and the request it sends.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeParams } from '../src/api.js';
import { canCreateInviteLinks, DEFAULT_EXPIRY, EXPIRY_CHOICES, inviteParams, inviteRoleChoices, linkSummary } from '../src/invite-rules.js';

describe('invitation links in the web client', () => {
  it('are for administrators and owners', () => {
    assert.deepEqual([100, 200, 300, 400, 600].map(canCreateInviteLinks), [true, true, false, false, false]);
  });

  it('offer the roles the inviter may hand out', () => {
    const labels = (role: number) => inviteRoleChoices(role).map((c) => c.label);
    assert.deepEqual(labels(100), ['Guest', 'Member', 'Moderator', 'Administrator', 'Owner']);
    assert.deepEqual(labels(200), ['Guest', 'Member', 'Moderator', 'Administrator']);
    assert.deepEqual(labels(400), ['Guest', 'Member']);
  });

  it('default to the server’s ten days, and send never as JSON null', () => {
    assert.equal(EXPIRY_CHOICES[DEFAULT_EXPIRY]!.minutes, 14_400);
    const never = EXPIRY_CHOICES.find((c) => c.minutes === null)!;
    assert.equal(encodeParams(inviteParams({ role: 600, expiry: never, streamIds: [9, 3] })).toString(), 'invite_as=600&invite_expires_in_minutes=null&stream_ids=%5B3%2C9%5D');
    assert.equal(encodeParams(inviteParams({ role: 400, expiry: EXPIRY_CHOICES[0]!, streamIds: [] })).toString(), 'invite_as=400&invite_expires_in_minutes=1440&stream_ids=%5B%5D');
  });

  it('sum a new link up in a sentence', () => {
    const roles = inviteRoleChoices(100);
    assert.equal(linkSummary({ role: 400, expiry: EXPIRY_CHOICES[2]!, streamIds: [] }, roles), 'Anyone with this link can sign up as a member. It expires in 10 days.');
    assert.equal(linkSummary({ role: 200, expiry: EXPIRY_CHOICES[4]!, streamIds: [] }, roles), 'Anyone with this link can sign up as an administrator. It never expires.');
  });
});
