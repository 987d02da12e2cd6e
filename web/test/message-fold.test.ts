// The client-side parts of the message-actions fold that the server's fold test cannot reach:
// custom emoji events, repeated reaction events, edits of messages not loaded, hidden histories.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message, ZEvent } from '../src/api.js';
import { applyEvent, fromRegister, type Model } from '../src/model.js';

function model(settings: Record<string, unknown> = {}): Model {
  const m = fromRegister({
    user_id: 7,
    full_name: 'Mark Member',
    realm_users: [{ user_id: 7, full_name: 'Mark Member', email: 'mark@confab.test', role: 400, date_joined: '2026-01-01T00:00:00+00:00' }],
    realm_message_edit_history_visibility_policy: 'all',
    realm_emoji: { '3': { id: '3', name: 'parrot', source_url: '/user_avatars/1/emoji/parrot.png', deactivated: false, author_id: 1 } },
    ...settings,
  });
  const message: Message = {
    id: 50, sender_id: 8, sender_full_name: 'Mona Member', sender_email: 'mona@confab.test', content: '<p>hi</p>', timestamp: 1,
    type: 'stream', stream_id: 4, subject: 'lunch', display_recipient: 'general', flags: [], reactions: [],
  };
  m.messages.set(50, message);
  return m;
}
const event = (fields: Record<string, unknown>): ZEvent => ({ id: 0, type: 'x', ...fields });

describe('the message-actions fold', () => {
  it('reads my role, join date and custom emoji from register, and follows realm_emoji events', () => {
    const m = model();
    assert.equal(m.myRole, 400);
    assert.equal(m.myDateJoined, Date.parse('2026-01-01T00:00:00Z') / 1000);
    assert.deepEqual(Object.keys(m.realmEmoji), ['3']);
    applyEvent(m, event({ type: 'realm_emoji', op: 'update', realm_emoji: { '4': { id: '4', name: 'ship', source_url: '/s.png', deactivated: false } } }));
    assert.deepEqual(m.realmEmoji, { '4': { id: '4', name: 'ship', source_url: '/s.png', deactivated: false } });
  });

  it('keeps one reaction per person and emoji even when an add arrives twice', () => {
    const m = model();
    const add = event({ type: 'reaction', op: 'add', message_id: 50, user_id: 7, emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    applyEvent(m, add);
    applyEvent(m, add);
    applyEvent(m, event({ type: 'reaction', op: 'add', message_id: 99, user_id: 7, emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    assert.deepEqual(m.messages.get(50)!.reactions, [{ emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: 7 }]);
    applyEvent(m, { ...add, op: 'remove' });
    assert.deepEqual(m.messages.get(50)!.reactions, []);
  });

  it('records edits under the realm history policy: all, moves only, or none', () => {
    const edit = event({
      type: 'update_message', user_id: 8, edit_timestamp: 90, message_id: 50, message_ids: [50], rendering_only: false,
      orig_content: 'hi', orig_rendered_content: '<p>hi</p>', content: 'hello', rendered_content: '<p>hello</p>', flags: ['read'],
      stream_id: 4, orig_subject: 'lunch', subject: 'dinner', propagate_mode: 'change_one',
    });
    const all = model();
    applyEvent(all, edit);
    assert.deepEqual(all.messages.get(50)!.edit_history, [
      { user_id: 8, timestamp: 90, prev_content: 'hi', prev_rendered_content: '<p>hi</p>', prev_topic: 'lunch', topic: 'dinner' },
    ]);
    assert.deepEqual(all.messages.get(50)!.flags, ['read']);
    const moves = model({ realm_message_edit_history_visibility_policy: 'moves' });
    applyEvent(moves, edit);
    assert.deepEqual(moves.messages.get(50)!.edit_history, [{ user_id: 8, timestamp: 90, prev_topic: 'lunch', topic: 'dinner' }]);
    const none = model({ realm_message_edit_history_visibility_policy: 'none' });
    applyEvent(none, edit);
    assert.equal(none.messages.get(50)!.edit_history, undefined);
    assert.equal(none.messages.get(50)!.last_edit_timestamp, 90);
  });

  it('ignores rendering-only updates in the history', () => {
    const m = model();
    applyEvent(m, event({ type: 'update_message', user_id: null, edit_timestamp: 90, message_id: 50, message_ids: [50], rendering_only: true, rendered_content: '<p>hi!</p>', flags: [] }));
    assert.equal(m.messages.get(50)!.edit_history, undefined);
  });
});
