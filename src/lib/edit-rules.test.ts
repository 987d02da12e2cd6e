import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkContentEdit,
  checkStreamMove,
  checkTopicEdit,
  checkWholeTopicMove,
  canMoveInto,
  moveDeadlineSeconds,
  MoveMessagesTimeLimitError,
  resolveChange,
  wildcardMentionAllowed,
} from './edit-rules.js';
import { REALM_SETTING_DEFAULTS } from './realm-settings.js';
import { Role } from './roles.js';

const NOW = 1_000_000_000;
const person = (role: number, id = 1, joinedDaysAgo = 100) => ({ id, role, date_joined: NOW - joinedDaysAgo * 86400 });
const member = person(Role.MEMBER);
const moderator = person(Role.MODERATOR);
const admin = person(Role.ADMINISTRATOR);
const guest = person(Role.GUEST);
const settings = { ...REALM_SETTING_DEFAULTS };
const throwsText = (fn: () => void, msg: string) => assert.throws(fn, (e: Error) => e.message === msg);

describe('edit rules', () => {
  it('lets only the sender edit content, within the limit plus 20 seconds', () => {
    checkContentEdit(member, 1, NOW - 620, settings, NOW);
    throwsText(() => checkContentEdit(member, 1, NOW - 621, settings, NOW), 'The time limit for editing this message has passed');
    throwsText(() => checkContentEdit(admin, 2, NOW, settings, NOW), "You don't have permission to edit this message");
    checkContentEdit(member, 1, 0, { ...settings, message_content_edit_limit_seconds: null }, NOW);
    throwsText(
      () => checkContentEdit(member, 1, NOW, { ...settings, allow_message_editing: false }, NOW),
      'Your organization has turned off message editing',
    );
  });

  it('applies edit_topic_policy and the within-stream limit, moderators exempt from the limit', () => {
    checkTopicEdit(guest, NOW, settings, NOW);
    throwsText(() => checkTopicEdit(guest, NOW, { ...settings, edit_topic_policy: 1 }, NOW), "You don't have permission to edit this message");
    throwsText(() => checkTopicEdit(moderator, NOW, { ...settings, edit_topic_policy: 2 }, NOW), "You don't have permission to edit this message");
    checkTopicEdit(moderator, NOW, { ...settings, edit_topic_policy: 4 }, NOW);
    throwsText(() => checkTopicEdit(member, NOW - 604821, settings, NOW), "The time limit for editing this message's topic has passed.");
    checkTopicEdit(moderator, 0, settings, NOW);
    checkTopicEdit(admin, 0, settings, NOW);
  });

  it('applies move_messages_between_streams_policy and its limit', () => {
    throwsText(() => checkStreamMove(guest, NOW, settings, NOW), "You don't have permission to move this message");
    checkStreamMove(member, NOW - 604820, settings, NOW);
    throwsText(() => checkStreamMove(member, NOW - 604821, settings, NOW), "The time limit for editing this message's channel has passed");
    checkStreamMove(admin, 0, settings, NOW);
    const fullMembers = { ...settings, move_messages_between_streams_policy: 3, waiting_period_threshold: 10 };
    throwsText(() => checkStreamMove(person(Role.MEMBER, 1, 5), NOW, fullMembers, NOW), "You don't have permission to move this message");
    checkStreamMove(person(Role.MEMBER, 1, 11), NOW, fullMembers, NOW);
  });

  it('takes the stricter of the applicable move limits for whole topics', () => {
    const limits = { ...settings, move_messages_within_stream_limit_seconds: 100, move_messages_between_streams_limit_seconds: 50 };
    assert.equal(moveDeadlineSeconds(member, limits, true, false), 120);
    assert.equal(moveDeadlineSeconds(member, limits, false, true), 70);
    assert.equal(moveDeadlineSeconds(member, limits, true, true), 70);
    assert.equal(moveDeadlineSeconds(moderator, limits, true, true), null);
    assert.equal(moveDeadlineSeconds(member, { ...limits, move_messages_within_stream_limit_seconds: null }, true, false), null);
  });

  it('reports how much of a topic may move', () => {
    const messages = [
      { id: 1, date_sent: NOW - 500 },
      { id: 2, date_sent: NOW - 50 },
      { id: 3, date_sent: NOW },
    ];
    checkWholeTopicMove(messages, 500, NOW);
    assert.throws(
      () => checkWholeTopicMove(messages, 100, NOW),
      (e: MoveMessagesTimeLimitError) =>
        e.code === 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED' &&
        e.message === 'You only have permission to move the 2/3 most recent messages in this topic.' &&
        JSON.stringify(e.data) === '{"first_message_id_allowed_to_move":2,"total_messages_in_topic":3,"total_messages_allowed_to_move":2}',
    );
    assert.throws(() => checkWholeTopicMove(messages, 1, NOW + 1000), (e: MoveMessagesTimeLimitError) => e.data.first_message_id_allowed_to_move === null);
  });

  it('allows moving into streams the actor could post in', () => {
    const open = { invite_only: 0, is_web_public: 0 };
    assert.equal(canMoveInto(member, open, false), true);
    assert.equal(canMoveInto(guest, open, false), false);
    assert.equal(canMoveInto(guest, { ...open, is_web_public: 1 }, false), true);
    assert.equal(canMoveInto(admin, { invite_only: 1, is_web_public: 0 }, false), false);
    assert.equal(canMoveInto(member, { invite_only: 1, is_web_public: 0 }, true), true);
  });

  it('limits wildcard mentions in large audiences by the policy', () => {
    assert.equal(wildcardMentionAllowed(member, 15, 6, 0, NOW), true);
    assert.equal(wildcardMentionAllowed(member, 16, 5, 0, NOW), false);
    assert.equal(wildcardMentionAllowed(admin, 16, 5, 0, NOW), true);
    assert.equal(wildcardMentionAllowed(member, 16, 1, 0, NOW), true);
    assert.equal(wildcardMentionAllowed(guest, 16, 2, 0, NOW), false);
    assert.equal(wildcardMentionAllowed(moderator, 16, 7, 0, NOW), true);
    assert.equal(wildcardMentionAllowed(admin, 16, 6, 0, NOW), false);
  });

  it('recognises resolving and unresolving', () => {
    assert.equal(resolveChange('bug', '✔ bug'), 'resolved');
    assert.equal(resolveChange('✔ bug', 'bug'), 'unresolved');
    assert.equal(resolveChange('✔ ✔ bug', 'bug'), 'unresolved');
    assert.equal(resolveChange('bug', '✔ other'), null);
    assert.equal(resolveChange('✔ bug', 'other'), null);
    assert.equal(resolveChange('bug', 'bugs'), null);
  });
});
