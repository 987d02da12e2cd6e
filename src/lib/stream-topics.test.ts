import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Role } from './roles.js';
import { hasContentAccess, mergeTopicCasings, topicHistoryScope } from './stream-topics.js';

const member = { role: Role.MEMBER };
const admin = { role: Role.ADMINISTRATOR };
const guest = { role: Role.GUEST };
const open = { invite_only: 0, history_public_to_subscribers: 1, is_web_public: 0 };
const webPublic = { invite_only: 0, history_public_to_subscribers: 1, is_web_public: 1 };
const privateShared = { invite_only: 1, history_public_to_subscribers: 1, is_web_public: 0 };
const privateProtected = { invite_only: 1, history_public_to_subscribers: 0, is_web_public: 0 };

describe('stream content access', () => {
  it('opens public streams to non-guests, web-public ones to all, anything to subscribers', () => {
    const cases: Array<[{ role: number }, typeof open, boolean, boolean]> = [
      [member, open, false, true],
      [guest, open, false, false],
      [guest, open, true, true],
      [guest, webPublic, false, true],
      [member, privateShared, false, false],
      [admin, privateShared, false, false],
      [admin, privateProtected, true, true],
      [member, privateProtected, true, true],
    ];
    for (const [viewer, stream, subscribed, expected] of cases) {
      assert.equal(hasContentAccess(viewer, stream, subscribed), expected, JSON.stringify({ viewer, stream, subscribed }));
    }
  });

  it('lists only received messages of protected history', () => {
    assert.equal(topicHistoryScope(open), 'stream');
    assert.equal(topicHistoryScope(privateShared), 'stream');
    assert.equal(topicHistoryScope(privateProtected), 'received');
  });
});

describe('mergeTopicCasings', () => {
  it('keeps the newest spelling and id of each topic, newest topic first', () => {
    const rows = [
      { name: 'Lunch', max_id: 5 },
      { name: 'other', max_id: 7 },
      { name: 'LUNCH', max_id: 9 },
      { name: 'lunch', max_id: 3 },
      { name: 'Ünïcode', max_id: 1 },
      { name: 'üNÏCODE', max_id: 2 },
    ];
    assert.deepEqual(mergeTopicCasings(rows), [
      { name: 'LUNCH', max_id: 9 },
      { name: 'other', max_id: 7 },
      { name: 'üNÏCODE', max_id: 2 },
    ]);
    assert.deepEqual(mergeTopicCasings([]), []);
  });
});
