import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageHistory, visibleHistory } from './edit-history.js';

const message = {
  sender_id: 1,
  date_sent: 100,
  subject: 'now',
  content: 'c3',
  rendered_content: '<p>c3</p>',
  edit_history: JSON.stringify([
    { user_id: 2, timestamp: 300, prev_stream: 5, stream: 6 },
    { user_id: 1, timestamp: 200, prev_content: 'c1', prev_rendered_content: '<p>c1</p>', prev_rendered_content_version: 1, prev_topic: 'then', topic: 'now' },
  ]),
};

describe('message history', () => {
  it('rebuilds every version from the newest-first stored history', () => {
    assert.deepEqual(messageHistory(message), [
      { user_id: 1, timestamp: 100, topic: 'then', content: 'c1', rendered_content: '<p>c1</p>' },
      {
        user_id: 1,
        timestamp: 200,
        topic: 'now',
        content: 'c3',
        rendered_content: '<p>c3</p>',
        prev_topic: 'then',
        prev_content: 'c1',
        prev_rendered_content: '<p>c1</p>',
        content_html_diff: '<div><p><span class="highlight_text_deleted">c1</span><span class="highlight_text_inserted">c3</span></p></div>',
      },
      { user_id: 2, timestamp: 300, topic: 'now', content: 'c3', rendered_content: '<p>c3</p>', prev_stream: 5, stream: 6 },
    ]);
    assert.deepEqual(messageHistory({ ...message, edit_history: null }), [
      { user_id: 1, timestamp: 100, topic: 'now', content: 'c3', rendered_content: '<p>c3</p>' },
    ]);
  });

  it('keeps only moves under the "moves" policy', () => {
    const visible = visibleHistory(messageHistory(message), 'moves');
    assert.equal(visible.length, 3);
    assert.equal(visible[1]!.prev_content, undefined);
    assert.equal(visible[1]!.content_html_diff, undefined);
    assert.equal(visible[1]!.prev_topic, 'then');
    const contentOnly = { ...message, edit_history: JSON.stringify([{ user_id: 1, timestamp: 200, prev_content: 'c1', prev_rendered_content: 'x' }]) };
    assert.equal(visibleHistory(messageHistory(contentOnly), 'moves').length, 1);
    assert.equal(visibleHistory(messageHistory(contentOnly), 'all').length, 2);
  });
});
