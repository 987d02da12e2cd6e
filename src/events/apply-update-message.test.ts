import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyUpdateMessage } from './apply-update-message.js';
import { emptyUnread, type UnreadMsgs } from './state/messages.js';

function state(): { unread_msgs: UnreadMsgs } {
  const unread = emptyUnread();
  unread.streams = [
    { stream_id: 1, topic: 'Old', unread_message_ids: [10, 12] },
    { stream_id: 2, topic: 'new', unread_message_ids: [11] },
  ];
  unread.mentions = [12];
  unread.count = 3;
  return { unread_msgs: unread };
}

describe('applyUpdateMessage', () => {
  it('regroups moved unread messages, naming groups after their oldest message', () => {
    const s = state();
    applyUpdateMessage(s, { type: 'update_message', message_id: 10, message_ids: [10, 12], stream_id: 1, new_stream_id: 2, subject: 'NEW', flags: [] });
    assert.deepEqual(s.unread_msgs.streams, [{ stream_id: 2, topic: 'NEW', unread_message_ids: [10, 11, 12] }]);
    assert.deepEqual(s.unread_msgs.mentions, [12]);
    assert.equal(s.unread_msgs.count, 3);
  });

  it('adds or removes the mention of an unread edited message', () => {
    const s = state();
    applyUpdateMessage(s, { type: 'update_message', message_id: 10, message_ids: [10], rendered_content: 'x', flags: ['mentioned'] });
    applyUpdateMessage(s, { type: 'update_message', message_id: 12, message_ids: [12], rendered_content: 'x', flags: [] });
    applyUpdateMessage(s, { type: 'update_message', message_id: 99, message_ids: [99], rendered_content: 'x', flags: ['mentioned'] });
    assert.deepEqual(s.unread_msgs.mentions, [10]);
  });
});
