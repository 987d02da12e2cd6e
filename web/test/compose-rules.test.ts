// What the compose box sends, and which key sends it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDraft, draftKey, fromApiDraft, insertAtCaret, isSendKey, messageLink, planIntent, quoteBlock, recipientKeyOf, recipientsOf, replyDraft, sendParams } from '../src/compose-rules.js';

const people = [
  { user_id: 10, full_name: 'Mark Member', email: 'mark@confab.test' },
  { user_id: 11, full_name: 'Mona Member', email: 'mona@confab.test' },
];
const base = { mode: 'stream' as const, streamId: 42, topic: 'lunch', to: '', content: 'hi' };

describe('compose rules', () => {
  it('sends a stream message to the stream id and topic', () => {
    assert.deepEqual(sendParams(base, people), { params: { type: 'stream', to: 42, topic: 'lunch', content: 'hi' } });
    assert.deepEqual(sendParams({ ...base, topic: '  ' }, people), { params: { type: 'stream', to: 42, topic: '(no topic)', content: 'hi' } });
  });

  it('sends a direct message to the ids of the people named by email or name', () => {
    assert.deepEqual(sendParams({ ...base, mode: 'dm', to: 'MONA@confab.test, mark member' }, people), { params: { type: 'direct', to: [11, 10], content: 'hi' } });
  });

  it('says why a draft cannot be sent', () => {
    assert.deepEqual(sendParams({ ...base, content: ' \n' }, people), { error: 'Write a message first.' });
    assert.deepEqual(sendParams({ ...base, streamId: undefined }, people), { error: 'Choose a stream.' });
    assert.deepEqual(sendParams({ ...base, mode: 'dm', to: ' , ' }, people), { error: 'Choose at least one recipient.' });
    assert.deepEqual(sendParams({ ...base, mode: 'dm', to: 'mona@confab.test, nobody' }, people), { error: 'Unknown recipient: nobody' });
  });

  it('sends on Enter, not on Shift+Enter nor while an input method composes', () => {
    assert.equal(isSendKey({ key: 'Enter', shiftKey: false }), true);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: true }), false);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true }), false);
    assert.equal(isSendKey({ key: 'a', shiftKey: false }), false);
  });
});

describe('compose rules: keys, recipients, quotes and drafts', () => {
  const mark = people[0]!;
  const mona = people[1]!;
  const streamMessage = {
    id: 77,
    sender_id: 11,
    sender_full_name: 'Mona Member',
    sender_email: 'mona@confab.test',
    content: '<p>hi</p>',
    timestamp: 1,
    type: 'stream' as const,
    stream_id: 42,
    subject: 'lunch plans',
    display_recipient: 'general',
    flags: [],
  };
  const dmMessage = {
    ...streamMessage,
    type: 'private' as const,
    stream_id: undefined,
    subject: '',
    display_recipient: [
      { id: 10, email: 'mark@confab.test', full_name: 'Mark Member' },
      { id: 11, email: 'mona@confab.test', full_name: 'Mona Member' },
    ],
  };

  it('follows enter_sends: on, Enter sends; off, Enter is a new line and Shift+Enter sends; Ctrl+Enter always sends', () => {
    assert.equal(isSendKey({ key: 'Enter', shiftKey: false }, true), true);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: true }, true), false);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: false }, false), false);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: true }, false), true);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: false, ctrlKey: true }, false), true);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: false, metaKey: true }, true), true);
    assert.equal(isSendKey({ key: 'Enter', shiftKey: true, isComposing: true }, false), false);
  });

  it('reads "To" as people, once each, or undefined while someone is unknown', () => {
    assert.deepEqual(recipientsOf('mona@confab.test, Mona Member,, mark member', people), [mona, mark]);
    assert.deepEqual(recipientsOf('', people), []);
    assert.equal(recipientsOf('mona@confab.test, nob', people), undefined);
  });

  it('replies to the stream and topic of a stream message, and to the other people of a direct one', () => {
    assert.deepEqual(replyDraft(streamMessage, 10), { mode: 'stream', streamId: 42, topic: 'lunch plans', to: '' });
    assert.deepEqual(replyDraft(dmMessage, 10), { mode: 'dm', streamId: undefined, topic: '', to: 'mona@confab.test' });
    // A message to oneself replies to oneself.
    const self = { ...dmMessage, display_recipient: [dmMessage.display_recipient[0]!] };
    assert.deepEqual(replyDraft(self, 10).to, 'mark@confab.test');
  });

  it("quotes as Zulip does: a silent mention, a link to the message, and a quote block", () => {
    const link = messageLink('https://chat.example', streamMessage, () => 'general');
    assert.equal(link, 'https://chat.example/#narrow/stream/42-general/topic/lunch.20plans/near/77');
    assert.equal(messageLink('https://chat.example', dmMessage, String), 'https://chat.example/#narrow/dm/10,11-dm/near/77');
    assert.equal(quoteBlock({ full_name: 'Mona Member', user_id: 11 }, link, 'Tacos?'), `@_**Mona Member|11** [said](${link}):\n\`\`\`quote\nTacos?\n\`\`\`\n`);
    // Code inside gets a longer fence, so the quote stays whole.
    assert.equal(quoteBlock({ full_name: 'M', user_id: 1 }, 'L', '```\nx\n```'), '@_**M|1** [said](L):\n````quote\n```\nx\n```\n````\n');
  });

  it('inserts a quote at the caret on lines of its own', () => {
    assert.deepEqual(insertAtCaret('', 0, 'Q\n'), { text: 'Q\n', caret: 2 });
    assert.deepEqual(insertAtCaret('ab', 1, 'Q\n'), { text: 'a\nQ\nb', caret: 4 });
    assert.deepEqual(insertAtCaret('a\n', 2, 'Q\n'), { text: 'a\nQ\n', caret: 4 });
  });

  it('turns what is written into a draft for the drafts API, and back', () => {
    assert.deepEqual(apiDraft(base, people, 10, 5_500), { type: 'stream', to: [42], topic: 'lunch', content: 'hi', timestamp: 5 });
    assert.deepEqual(apiDraft({ ...base, mode: 'dm', to: 'mona@confab.test, mark@confab.test' }, people, 10, 0), { type: 'private', to: [11], topic: '', content: 'hi', timestamp: 0 });
    assert.equal(apiDraft({ ...base, content: '  ' }, people, 10, 0), null);
    assert.equal(apiDraft({ ...base, mode: 'dm', to: 'nobody' }, people, 10, 0), null);
    const byId = new Map(people.map((p) => [p.user_id, p]));
    assert.deepEqual(fromApiDraft({ id: 1, type: 'private', to: [11], topic: '', content: 'x', timestamp: 0 }, byId), { mode: 'dm', streamId: undefined, topic: '', to: 'mona@confab.test', content: 'x' });
    assert.deepEqual(fromApiDraft({ id: 1, type: 'stream', to: [42], topic: 't', content: 'x', timestamp: 0 }, byId), { mode: 'stream', streamId: 42, topic: 't', to: '', content: 'x' });
  });

  it('keys drafts by recipient: topics without regard to case, direct messages by their people', () => {
    assert.equal(recipientKeyOf({ ...base, topic: 'Lunch' }, people, 10), draftKey({ type: 'stream', to: [42], topic: 'lunch' }));
    assert.equal(recipientKeyOf({ ...base, mode: 'dm', to: 'mark@confab.test, Mona Member' }, people, 10), draftKey({ type: 'private', to: [11], topic: '' }));
    assert.equal(recipientKeyOf({ ...base, streamId: undefined }, people, 10), null);
    assert.equal(recipientKeyOf({ ...base, mode: 'dm', to: '' }, people, 10), null);
  });
});

describe('compose requests', () => {
  const message = {
    id: 77,
    sender_id: 11,
    sender_full_name: 'Mona Member',
    sender_email: 'mona@confab.test',
    content: '<p>hi</p>',
    timestamp: 1,
    type: 'stream' as const,
    stream_id: 43,
    subject: 'lunch',
    display_recipient: 'random',
    flags: [],
  };
  const context = { me: 10, message, narrowStream: undefined, fallbackStream: 1 };
  const writing = { mode: 'stream' as const, streamId: 42, topic: 'old', to: '', content: 'x' };

  it('replies and quotes to the message’s conversation, focusing the message; nothing for an unknown message', () => {
    assert.deepEqual(planIntent({ kind: 'reply', messageId: 77 }, writing, context), { recipient: { mode: 'stream', streamId: 43, topic: 'lunch', to: '' }, focus: 'message' });
    assert.deepEqual(planIntent({ kind: 'quote', messageId: 77 }, writing, context)?.quote, message);
    assert.equal(planIntent({ kind: 'reply', messageId: 78 }, writing, { ...context, message: undefined }), null);
  });

  it('starts a new topic in the open stream (else the one being written to) with the topic cleared', () => {
    assert.deepEqual(planIntent({ kind: 'new-topic' }, writing, { ...context, narrowStream: 44 }), { recipient: { mode: 'stream', streamId: 44, topic: '', to: '' }, focus: 'topic' });
    assert.deepEqual(planIntent({ kind: 'new-topic' }, writing, context)?.recipient.streamId, 42);
    assert.deepEqual(planIntent({ kind: 'new-topic' }, { ...writing, mode: 'dm' }, context)?.recipient.streamId, 1);
  });

  it('starts a direct message by focusing "To"', () => {
    assert.deepEqual(planIntent({ kind: 'new-dm' }, writing, context), { recipient: { mode: 'dm', streamId: 42, topic: '', to: '' }, focus: 'to' });
    assert.equal(planIntent({ kind: 'new-dm' }, { ...writing, mode: 'dm', to: 'mona@confab.test' }, context)?.recipient.to, 'mona@confab.test');
  });
});
