import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../errors.js';
import { byNewestEdit, byOldestEdit, type DraftDict, draftInput, draftText } from './drafts.js';
import { truncateTopic } from './message-content.js';

const input = (over: Record<string, unknown>) => draftInput.parse({ type: '', to: [], topic: '', content: 'hi', ...over });
const refusal = (fn: () => unknown, msg: string) => assert.throws(fn, (e: unknown) => e instanceof ApiError && e.message === msg);

describe('draft rules', () => {
  it('uses the given time in whole seconds, or now', () => {
    assert.equal(draftText(input({ timestamp: 12.9 }), 50).lastEditTime, 12);
    assert.equal(draftText(input({}), 50).lastEditTime, 50);
    assert.equal(draftText(input({ timestamp: null }), 50).lastEditTime, 50);
  });

  it('keeps a topic only for stream drafts, and checks it', () => {
    assert.equal(draftText(input({ type: 'private', topic: 'dropped' }), 0).topic, '');
    assert.equal(draftText(input({ type: 'stream', to: [1], topic: 'kept' }), 0).topic, 'kept');
    refusal(() => draftText(input({ type: 'stream', to: [1], topic: '\u0000' }), 0), 'Topic must not contain null bytes');
    refusal(() => draftText(input({ type: 'stream', to: [1, 2], topic: 't' }), 0), 'Must specify exactly 1 channel ID for channel messages');
  });

  it('refuses negative times and bad content', () => {
    refusal(() => draftText(input({ timestamp: -0.5 }), 0), 'Timestamp must not be negative.');
    refusal(() => draftText(input({ content: 'a\u0000' }), 0), 'Message must not contain null bytes');
  });

  it('truncates long topics with an ellipsis, counting characters', () => {
    assert.equal(truncateTopic('é'.repeat(60)), 'é'.repeat(60));
    assert.equal(truncateTopic('😀'.repeat(61)), `${'😀'.repeat(57)}...`);
  });

  it('orders by edit time, then id', () => {
    const d = (id: number, timestamp: number) => ({ id, timestamp }) as DraftDict;
    const list = [d(3, 5), d(1, 9), d(2, 5)];
    assert.deepEqual([...list].sort(byOldestEdit).map((x) => x.id), [2, 3, 1]);
    assert.deepEqual([...list].sort(byNewestEdit).map((x) => x.id), [1, 3, 2]);
  });
});
