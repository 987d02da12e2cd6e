// Which arriving messages make a desktop notification, and what it says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromRegister } from '../src/model.js';
import { alertFor, plainText } from '../src/notify.js';

const m = fromRegister({
  user_id: 1,
  full_name: 'Me',
  email: 'me@x.test',
  subscriptions: [{ stream_id: 42, name: 'general', color: '#fff' }],
});
const me = { id: 1, email: 'me@x.test', full_name: 'Me' };
const ann = { id: 2, email: 'ann@x.test', full_name: 'Ann' };
const bob = { id: 3, email: 'bob@x.test', full_name: 'Bob' };
const base = { sender_email: 'ann@x.test', timestamp: 0, subject: '', last_edit_timestamp: undefined };

function dm(recipients: (typeof me)[], senderId = 2, flags: string[] = []) {
  return { id: 9, type: 'message', flags, message: { ...base, id: 100, sender_id: senderId, sender_full_name: 'Ann', content: '<p>Hi <b>there</b> &amp; more</p>', type: 'private', display_recipient: recipients, flags } };
}

describe('desktop notifications', () => {
  it('come for a direct message from someone else', () => {
    assert.deepEqual(alertFor(m, dm([me, ann])), { title: 'Ann', body: 'Hi there & more', tag: 'dm:2', messageId: 100, narrow: { kind: 'dm', userIds: [2] } });
    assert.deepEqual(alertFor(m, dm([me, ann, bob]))?.title, 'Ann (to Ann, Bob)');
    assert.deepEqual(alertFor(m, dm([me, ann, bob]))?.narrow, { kind: 'dm', userIds: [2, 3] });
    assert.equal(alertFor(m, dm([me, ann], 1)), null);
    assert.equal(alertFor(m, dm([me, ann], 2, ['read'])), null);
  });

  it('come for a mention in a stream, not for other stream messages', () => {
    const stream = (flags: string[]) => ({
      id: 9,
      type: 'message',
      flags,
      message: { ...base, id: 101, sender_id: 2, sender_full_name: 'Ann', content: '<p>@Me look</p>', type: 'stream', stream_id: 42, subject: 'lunch', display_recipient: 'general', flags },
    });
    assert.deepEqual(alertFor(m, stream(['mentioned'])), { title: 'Ann (#general > lunch)', body: '@Me look', tag: 'stream:42:lunch', messageId: 101, narrow: { kind: 'stream', streamId: 42, topic: 'lunch' } });
    assert.ok(alertFor(m, stream(['stream_wildcard_mentioned'])));
    assert.equal(alertFor(m, stream([])), null);
    assert.equal(alertFor(m, { id: 1, type: 'update_message_flags', op: 'add', flag: 'read', messages: [1] }), null);
  });

  it('shorten long text', () => {
    assert.equal(plainText(`<p>${'a'.repeat(200)}</p>`).length, 150);
    assert.equal(plainText('<p>x &lt;y&gt; &quot;z&quot; &#39;w&#39;</p>'), 'x <y> "z" \'w\'');
  });
});
