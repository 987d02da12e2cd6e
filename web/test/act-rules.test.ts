// What the message actions offer (the realm's policies and time limits, as the server enforces
// them), the edited marks, reaction summaries and message links.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedActions, editMark, emojiCharacters, nearHash, passesPolicy, type RealmEditSettings, summarizeReactions, toggleResolved } from '../src/act-rules.js';
import type { Message } from '../src/api.js';

const NOW = 1_800_000_000;
const DAY = 86_400;
const DEFAULTS: RealmEditSettings = {
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600,
  message_content_delete_limit_seconds: 600,
  move_messages_within_stream_limit_seconds: 604800,
  move_messages_between_streams_limit_seconds: 604800,
  edit_topic_policy: 5,
  move_messages_between_streams_policy: 1,
  delete_own_message_policy: 5,
  message_edit_history_visibility_policy: 'all',
  waiting_period_threshold: 0,
};
const member = { user_id: 7, role: 400, date_joined: NOW - 100 * DAY };
const moderator = { user_id: 3, role: 300, date_joined: NOW - 100 * DAY };
const admin = { user_id: 2, role: 200, date_joined: NOW - 100 * DAY };
const guest = { user_id: 9, role: 600, date_joined: NOW - 100 * DAY };

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: 50,
    sender_id: 7,
    sender_full_name: 'Mark Member',
    sender_email: 'mark@confab.test',
    content: '<p>hi</p>',
    timestamp: NOW - 60,
    type: 'stream',
    stream_id: 4,
    subject: 'lunch',
    display_recipient: 'general',
    flags: [],
    ...overrides,
  };
}

describe('allowed message actions', () => {
  it('lets the sender edit and delete within the limits, and everyone move under the default policies', () => {
    assert.deepEqual(allowedActions(message(), member, DEFAULTS, NOW), { editContent: true, editTopic: true, moveStream: true, delete: true });
    const others = message({ sender_id: 8 });
    assert.deepEqual(allowedActions(others, member, DEFAULTS, NOW), { editContent: false, editTopic: true, moveStream: true, delete: false });
  });

  it('stops offering content edits and deletion once their limits pass, and never with editing off', () => {
    const old = message({ timestamp: NOW - 601 });
    assert.deepEqual(allowedActions(old, member, DEFAULTS, NOW), { editContent: false, editTopic: true, moveStream: true, delete: false });
    assert.equal(allowedActions(message({ timestamp: NOW - 600 }), member, DEFAULTS, NOW).editContent, true);
    assert.equal(allowedActions(old, member, { ...DEFAULTS, message_content_edit_limit_seconds: null }, NOW).editContent, true);
    assert.equal(allowedActions(message(), member, { ...DEFAULTS, allow_message_editing: false }, NOW).editContent, false);
    assert.equal(allowedActions(old, member, { ...DEFAULTS, message_content_delete_limit_seconds: null }, NOW).delete, true);
  });

  it('lets administrators delete anything, and exempts moderators from the move limits', () => {
    const ancient = message({ sender_id: 8, timestamp: NOW - 30 * DAY });
    assert.deepEqual(allowedActions(ancient, admin, DEFAULTS, NOW), { editContent: false, editTopic: true, moveStream: true, delete: true });
    assert.deepEqual(allowedActions(ancient, moderator, DEFAULTS, NOW), { editContent: false, editTopic: true, moveStream: true, delete: false });
    assert.deepEqual(allowedActions(ancient, member, DEFAULTS, NOW), { editContent: false, editTopic: false, moveStream: false, delete: false });
  });

  it('follows the topic, move and delete policies', () => {
    const adminsOnly = { ...DEFAULTS, edit_topic_policy: 2, move_messages_between_streams_policy: 2, delete_own_message_policy: 2 };
    assert.deepEqual(allowedActions(message(), member, adminsOnly, NOW), { editContent: true, editTopic: false, moveStream: false, delete: false });
    assert.deepEqual(allowedActions(message({ sender_id: 2 }), admin, adminsOnly, NOW), { editContent: true, editTopic: true, moveStream: true, delete: true });
    const nobody = { ...DEFAULTS, move_messages_between_streams_policy: 6 };
    assert.equal(allowedActions(message(), admin, nobody, NOW).moveStream, false);
    // Guests fail the members policy (moving between streams by default) but pass "everyone".
    assert.deepEqual(allowedActions(message({ sender_id: 9 }), guest, DEFAULTS, NOW), { editContent: true, editTopic: true, moveStream: false, delete: true });
  });

  it('never offers topic edits or moves for direct messages', () => {
    const dm = message({ type: 'private', stream_id: undefined, subject: '', display_recipient: [] });
    assert.deepEqual(allowedActions(dm, admin, DEFAULTS, NOW), { editContent: false, editTopic: false, moveStream: false, delete: true });
  });

  it('counts new members as full members only after the waiting period', () => {
    const newcomer = { user_id: 7, role: 400, date_joined: NOW - 2 * DAY };
    assert.equal(passesPolicy(newcomer, 3, 3, NOW), false);
    assert.equal(passesPolicy(newcomer, 3, 2, NOW), true);
    assert.equal(passesPolicy({ ...newcomer, role: 300 }, 3, 3, NOW), true);
    assert.equal(passesPolicy(newcomer, 4, 0, NOW), false);
    assert.equal(passesPolicy(moderator, 4, 0, NOW), true);
    assert.equal(passesPolicy(guest, 3, 0, NOW), false);
  });
});

describe('edited marks', () => {
  it('says EDITED for content changes, MOVED for moves, and nothing for resolving a topic', () => {
    assert.equal(editMark({}), null);
    assert.equal(editMark({ edit_history: [{ user_id: 1, timestamp: 1, prev_content: 'a', prev_rendered_content: '<p>a</p>' }] }), 'EDITED');
    assert.equal(editMark({ edit_history: [{ user_id: 1, timestamp: 1, prev_topic: 'a', topic: 'b' }] }), 'MOVED');
    assert.equal(editMark({ edit_history: [{ user_id: 1, timestamp: 1, prev_stream: 4, stream: 5 }] }), 'MOVED');
    assert.equal(editMark({ edit_history: [{ user_id: 1, timestamp: 1, prev_topic: 'a', topic: '✔ a' }] }), null);
    assert.equal(editMark({ edit_history: [{ user_id: 1, timestamp: 2, prev_topic: 'a', topic: 'b' }, { user_id: 1, timestamp: 1, prev_content: 'x' }] }), 'EDITED');
    // With the history hidden by the realm, the edit time alone still marks it.
    assert.equal(editMark({ last_edit_timestamp: 5 }), 'EDITED');
  });

  it('adds and removes the resolved mark', () => {
    assert.equal(toggleResolved('lunch'), '✔ lunch');
    assert.equal(toggleResolved('✔ lunch'), 'lunch');
    assert.equal(toggleResolved('✔ ✔ lunch'), 'lunch');
  });
});

describe('reaction summaries', () => {
  const names: Record<number, string> = { 7: 'Mark Member', 8: 'Mona Member', 9: 'Milo Member' };
  const react = (user_id: number, emoji_name: string, emoji_code: string) => ({ user_id, emoji_name, emoji_code, reaction_type: 'unicode_emoji' as const });

  it('counts each emoji once in first-use order, marks mine, and names who reacted', () => {
    const summary = summarizeReactions([react(8, 'thumbs_up', '1f44d'), react(9, 'tada', '1f389'), react(7, '+1', '1f44d'), react(9, 'thumbs_up', '1f44d')], 7, (id) => names[id]!);
    assert.deepEqual(
      summary.map(({ emoji_code, count, mine, title }) => ({ emoji_code, count, mine, title })),
      [
        { emoji_code: '1f44d', count: 3, mine: true, title: 'You, Mona Member and Milo Member reacted with :thumbs_up:' },
        { emoji_code: '1f389', count: 1, mine: false, title: 'Milo Member reacted with :tada:' },
      ],
    );
  });

  it('shows the characters of a Unicode emoji code', () => {
    assert.equal(emojiCharacters('1f44d'), '👍');
    assert.equal(emojiCharacters('1f468-200d-1f4bb'), '👨‍💻');
    assert.equal(emojiCharacters('zulip'), null);
    assert.equal(emojiCharacters('110000'), null);
  });
});

describe('message links', () => {
  const hash = (streamId: number, topic: string) => `#narrow/stream/${streamId}-general/topic/${topic}`;

  it('links a stream message by its topic and a direct message by the other people', () => {
    assert.equal(nearHash(message(), 7, hash), '#narrow/stream/4-general/topic/lunch/near/50');
    const people = [
      { id: 7, email: 'mark@confab.test', full_name: 'Mark Member' },
      { id: 8, email: 'mona@confab.test', full_name: 'Mona Member' },
    ];
    const dm = message({ type: 'private', display_recipient: people });
    assert.equal(nearHash(dm, 7, hash), '#narrow/dm/8-Mona-Member/near/50');
    const group = message({ type: 'private', display_recipient: [...people, { id: 9, email: 'milo@confab.test', full_name: 'Milo Member' }] });
    assert.equal(nearHash(group, 7, hash), '#narrow/dm/8,9-group/near/50');
    assert.equal(nearHash(message({ type: 'private', display_recipient: [people[0]!] }), 7, hash), '#narrow/dm/7-Mark-Member/near/50');
  });
});
