// What the compose box sends, and which key sends it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSendKey, sendParams } from '../src/compose-rules.js';

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
