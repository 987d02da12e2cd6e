// Direct-message conversations in the client's model: each unread direct message knows its
// conversation (from register, message events and marking unread), the recent conversations follow
// new messages, and `p` picks the next conversation with unread messages as Zulip does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ZEvent } from '../src/api.js';
import { conversationName, dmConversations, dmKey, listedConversations, nextUnreadConversation } from '../src/dm-conversations.js';
import { applyEvent, fromRegister, unreadCounts } from '../src/model.js';

const me = { id: 1, email: 'me@x.test', full_name: 'Me' };
const ann = { id: 2, email: 'ann@x.test', full_name: 'Ann' };
const bob = { id: 3, email: 'bob@x.test', full_name: 'Bob' };
const cy = { id: 4, email: 'cy@x.test', full_name: 'Cy' };

const register = (extra: Record<string, unknown> = {}) =>
  fromRegister({ user_id: 1, full_name: 'Me', email: 'me@x.test', realm_users: [me, ann, bob, cy].map(({ id, ...p }) => ({ user_id: id, ...p })), ...extra });

let eventId = 0;
function dmEvent(id: number, recipients: (typeof me)[], senderId: number, flags: string[] = []): ZEvent {
  const sender = recipients.find((p) => p.id === senderId)!;
  return {
    id: ++eventId,
    type: 'message',
    flags,
    message: { id, sender_id: senderId, sender_full_name: sender.full_name, sender_email: sender.email, content: '<p>hi</p>', timestamp: 0, type: 'private', subject: '', display_recipient: recipients, flags },
  };
}

describe('conversation keys', () => {
  it("are the other people's ids, sorted, or mine alone for the conversation with myself", () => {
    assert.equal(dmKey([9, 5, 1], 1), '5,9');
    assert.equal(dmKey([5], 1), '5');
    assert.equal(dmKey([1], 1), '1');
    assert.equal(dmKey([], 1), '1');
    assert.equal(dmKey([5, 5, 1, 1], 1), '5');
  });
});

describe('unread direct messages in the model', () => {
  it('know their conversation from register: one-on-one (either field name), group, and with myself', () => {
    const m = register({
      unread_msgs: {
        pms: [
          { other_user_id: 2, sender_id: 2, unread_message_ids: [10, 12] },
          { sender_id: 3, unread_message_ids: [11] },
          { other_user_id: 1, sender_id: 1, unread_message_ids: [13] },
        ],
        huddles: [{ user_ids_string: '1,2,4', unread_message_ids: [14] }],
        streams: [{ stream_id: 7, topic: 'lunch', unread_message_ids: [15] }],
        mentions: [14],
      },
    });
    assert.deepEqual(Object.fromEntries(m.unread), {
      10: { kind: 'dm', conversation: '2', mentioned: false },
      12: { kind: 'dm', conversation: '2', mentioned: false },
      11: { kind: 'dm', conversation: '3', mentioned: false },
      13: { kind: 'dm', conversation: '1', mentioned: false },
      14: { kind: 'dm', conversation: '2,4', mentioned: true },
      15: { kind: 'stream', streamId: 7, topic: 'lunch', mentioned: false },
    });
    assert.equal(unreadCounts(m).dms, 5);
    assert.deepEqual(
      dmConversations(m).map((c) => [c.key, c.unread]),
      [['2,4', 1], ['1', 1], ['2', 2], ['3', 1]],
    );
  });

  it('know their conversation from message events, and from being marked unread', () => {
    const m = register();
    applyEvent(m, dmEvent(20, [me, ann], 2));
    applyEvent(m, dmEvent(21, [cy, me, ann], 4, ['mentioned']));
    applyEvent(m, dmEvent(22, [me], 1));
    applyEvent(m, dmEvent(23, [me, bob], 1, ['read']));
    assert.deepEqual(Object.fromEntries(m.unread), {
      20: { kind: 'dm', conversation: '2', mentioned: false },
      21: { kind: 'dm', conversation: '2,4', mentioned: true },
      22: { kind: 'dm', conversation: '1', mentioned: false },
    });
    applyEvent(m, { id: ++eventId, type: 'update_message_flags', op: 'add', flag: 'read', messages: [20, 21, 22], all: false });
    assert.equal(m.unread.size, 0);
    // The details leave me out: none for a message to myself.
    applyEvent(m, {
      id: ++eventId,
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [21, 22, 23],
      all: false,
      message_details: { 21: { type: 'private', user_ids: [2, 4], mentioned: true }, 22: { type: 'private', user_ids: [] }, 23: { type: 'private', user_ids: [3] } },
    });
    assert.deepEqual(Object.fromEntries(m.unread), {
      21: { kind: 'dm', conversation: '2,4', mentioned: true },
      22: { kind: 'dm', conversation: '1', mentioned: false },
      23: { kind: 'dm', conversation: '3', mentioned: false },
    });
  });

  it('make recent conversations from register, which new messages, read or not, move to the top', () => {
    const m = register({
      recent_private_conversations: [
        { max_message_id: 30, user_ids: [2] },
        { max_message_id: 25, user_ids: [] },
        { max_message_id: 20, user_ids: [2, 4] },
      ],
    });
    assert.deepEqual(Object.fromEntries(m.recentDms), { 2: 30, 1: 25, '2,4': 20 });
    applyEvent(m, dmEvent(40, [me, cy, ann], 1, ['read']));
    applyEvent(m, dmEvent(41, [me, bob], 3));
    assert.deepEqual(dmConversations(m), [
      { key: '3', userIds: [3], maxId: 41, unread: 1 },
      { key: '2,4', userIds: [2, 4], maxId: 40, unread: 0 },
      { key: '2', userIds: [2], maxId: 30, unread: 0 },
      { key: '1', userIds: [1], maxId: 25, unread: 0 },
    ]);
  });

  it('list conversations only unread messages name too, by their newest unread', () => {
    const m = register({ recent_private_conversations: [{ max_message_id: 30, user_ids: [2] }], unread_msgs: { pms: [{ other_user_id: 3, unread_message_ids: [5, 8] }] } });
    assert.deepEqual(dmConversations(m), [
      { key: '2', userIds: [2], maxId: 30, unread: 0 },
      { key: '3', userIds: [3], maxId: 8, unread: 2 },
    ]);
  });
});

describe('the next unread conversation (p)', () => {
  const c = (key: string, unread: number) => ({ key, userIds: key.split(',').map(Number), maxId: 0, unread });
  // Newest first, as the sidebar lists them.
  const list = [c('2', 1), c('7', 0), c('3,4', 2), c('5', 3), c('6', 0)];
  const next = (current: string | undefined) => nextUnreadConversation(list, current)?.key ?? null;

  it('is the first one with unread messages after the open one, newest first, wrapping around', () => {
    assert.equal(next('2'), '3,4');
    assert.equal(next('7'), '3,4');
    assert.equal(next('3,4'), '5');
    assert.equal(next('5'), '2');
    assert.equal(next('6'), '2');
  });

  it('starts at the newest when no conversation (or an unknown one) is open', () => {
    assert.equal(next(undefined), '2');
    assert.equal(next('9'), '2');
  });

  it('is never the open one, and there is none when nothing else is unread', () => {
    assert.equal(nextUnreadConversation([c('2', 4), c('3', 0)], '2'), null);
    assert.equal(nextUnreadConversation([c('2', 0), c('3', 0)], undefined), null);
    assert.equal(nextUnreadConversation([], undefined), null);
  });
});

describe('the sidebar list of conversations', () => {
  const c = (key: string, unread: number) => ({ key, userIds: key.split(',').map(Number), maxId: 0, unread });
  const list = [c('2', 0), c('3', 0), c('4', 0), c('5', 1), c('6', 0), c('7', 2)];

  it('shows the newest few, any with unread messages and the open one; all when asked', () => {
    assert.deepEqual(listedConversations(list, undefined, 2, false).map((x) => x.key), ['2', '3', '5', '7']);
    assert.deepEqual(listedConversations(list, '6', 2, false).map((x) => x.key), ['2', '3', '5', '6', '7']);
    assert.deepEqual(listedConversations(list, undefined, 2, true).map((x) => x.key), ['2', '3', '4', '5', '6', '7']);
  });

  it('names the people by name, "You" for myself, and people no longer listed from their messages', () => {
    const m = register();
    assert.equal(conversationName(m, [4, 3, 2]), 'Ann, Bob, Cy');
    assert.equal(conversationName(m, [1]), 'You');
    assert.equal(conversationName(m, [2, 9]), 'Ann, Unknown user');
    applyEvent(m, dmEvent(50, [me, { id: 9, email: 'zed@x.test', full_name: 'Zed' }], 1, ['read']));
    assert.equal(conversationName(m, [2, 9]), 'Ann, Zed');
  });
});
