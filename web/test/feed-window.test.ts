// The feed's windowing without a browser: rows under recipient bars, offsets from measured heights,
// the slice rendered around the viewport, holding the view while rows change, and fetched ranges.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../src/api.js';
import {
  anchorAt,
  ESTIMATED_HEIGHT,
  feedRows,
  inRange,
  mergeRange,
  rowAt,
  rowOffsets,
  rowsInside,
  scrollToShow,
  scrollTopFor,
  visibleSlice,
} from '../src/feed-window.js';

function msg(id: number, topic: string): Message {
  return { id, sender_id: 1, sender_full_name: 'A', sender_email: 'a@x', content: '', timestamp: 0, type: 'stream', stream_id: 1, subject: topic, display_recipient: 'general', flags: [] };
}
const byTopic = (m: Message) => m.subject;

describe('feed rows', () => {
  it('puts a recipient bar before each run of one conversation and marks the run ends', () => {
    const rows = feedRows([msg(1, 'a'), msg(2, 'a'), msg(3, 'b'), msg(4, 'a')], byTopic);
    assert.deepEqual(
      rows.map((r) => (r.kind === 'bar' ? r.key : `${r.first ? '^' : ''}${r.key}${r.last ? '!' : ''}`)),
      ['b1', '^m1', 'm2!', 'b3', '^m3!', 'b4', '^m4!'],
    );
    assert.deepEqual(feedRows([], byTopic), []);
  });

  it('places rows by measured heights, estimating the rest', () => {
    const rows = feedRows([msg(1, 'a'), msg(2, 'a')], byTopic);
    const offsets = rowOffsets(rows, new Map([['m1', 100]]));
    assert.deepEqual([...offsets], [0, ESTIMATED_HEIGHT.bar, ESTIMATED_HEIGHT.bar + 100, ESTIMATED_HEIGHT.bar + 100 + ESTIMATED_HEIGHT.message]);
  });
});

describe('the rendered slice', () => {
  // 1,000 rows of 50 px.
  const offsets = Float64Array.from({ length: 1001 }, (_, i) => i * 50);

  it('finds the row under a position', () => {
    assert.equal(rowAt(offsets, 0), 0);
    assert.equal(rowAt(offsets, 49.9), 0);
    assert.equal(rowAt(offsets, 50), 1);
    assert.equal(rowAt(offsets, 1e9), 999);
    assert.equal(rowAt(offsets, -5), 0);
    assert.equal(rowAt(new Float64Array([0]), 10), 0);
  });

  it('covers the viewport and a margin on each side, and no more', () => {
    assert.deepEqual(visibleSlice(offsets, 10_000, 500, 200), { start: 196, end: 215 });
    assert.deepEqual(visibleSlice(offsets, 0, 500, 200), { start: 0, end: 15 });
    assert.deepEqual(visibleSlice(offsets, 49_800, 500, 200), { start: 992, end: 1000 });
    assert.deepEqual(visibleSlice(new Float64Array([0]), 0, 500, 200), { start: 0, end: 0 });
  });

  it('names the rows at least partly on screen', () => {
    assert.deepEqual(rowsInside(offsets, 75, 100), { start: 1, end: 4 });
    assert.deepEqual(rowsInside(offsets, 100, 100), { start: 2, end: 4 });
    assert.deepEqual(rowsInside(offsets, 0, 0), { start: 0, end: 0 });
  });

  it('scrolls as little as needed to show a row, with room around it', () => {
    assert.equal(scrollToShow(offsets, 10, 400, 300, 20), null);
    assert.equal(scrollToShow(offsets, 5, 400, 300, 20), 230);
    assert.equal(scrollToShow(offsets, 20, 400, 300, 20), 770);
    // A row taller than the viewport shows its top.
    const tall = Float64Array.from([0, 50, 1050, 1100]);
    assert.equal(scrollToShow(tall, 1, 2000, 300, 20), 30);
  });
});

describe('holding the view still', () => {
  it('keeps the message at the top of the view in place when older messages arrive above it', () => {
    const before = feedRows([msg(10, 'a'), msg(11, 'a')], byTopic);
    const heights = new Map([['b10', 40], ['m10', 60], ['m11', 60], ['b5', 40], ['m5', 70], ['m6', 80]]);
    const offsetsBefore = rowOffsets(before, heights);
    // The view's top is 10 px into message 10's bar: it is held by message 10, 30 px above it.
    const anchor = anchorAt(before, offsetsBefore, 10);
    assert.deepEqual(anchor, { key: 'm10', delta: -30 });
    const after = feedRows([msg(5, 'a'), msg(6, 'a'), msg(10, 'a'), msg(11, 'a')], byTopic);
    const offsetsAfter = rowOffsets(after, heights);
    const indexOf = new Map(after.map((r, i) => [r.key, i]));
    // Bar (40) + 5 (70) + 6 (80) now sit above message 10: its top is at 190, the view at 160.
    assert.equal(scrollTopFor(anchor!, indexOf, offsetsAfter, 300), 160);
  });

  it('follows the newest message from the bottom, and gives up on a row that is gone', () => {
    const offsets = Float64Array.from([0, 100, 250]);
    assert.equal(scrollTopFor('bottom', new Map(), offsets, 100), 150);
    assert.equal(scrollTopFor('bottom', new Map(), offsets, 400), 0);
    assert.equal(scrollTopFor({ key: 'm9', delta: 0 }, new Map(), offsets, 100), null);
    assert.equal(anchorAt([], new Float64Array([0]), 0), null);
  });
});

describe('fetched ranges', () => {
  const ids = (...list: number[]) => list.map((id) => ({ id }));

  it('starts from the fetch around the anchor and grows at either end', () => {
    let range = mergeRange(null, { messages: ids(50, 60, 70), found_oldest: false, found_newest: false }, 'around');
    assert.deepEqual(range, { oldestId: 50, newestId: 70, foundOldest: false, foundNewest: false });
    range = mergeRange(range, { messages: ids(20, 30), found_oldest: true, found_newest: false }, 'older');
    assert.deepEqual(range, { oldestId: 20, newestId: 70, foundOldest: true, foundNewest: false });
    range = mergeRange(range, { messages: ids(80), found_oldest: false, found_newest: true }, 'newer');
    assert.deepEqual(range, { oldestId: 20, newestId: 80, foundOldest: true, foundNewest: true });
  });

  it('shows only what has no gap beside it; a complete end takes in messages arriving later', () => {
    const middle = { oldestId: 50, newestId: 70, foundOldest: false, foundNewest: false };
    assert.deepEqual([40, 50, 60, 70, 71].map((id) => inRange(middle, id)), [false, true, true, true, false]);
    const latest = { ...middle, foundNewest: true };
    assert.equal(inRange(latest, 1000), true);
    // An empty narrow is complete at both ends: everything that arrives belongs to it.
    const empty = mergeRange(null, { messages: [], found_oldest: true, found_newest: true }, 'around');
    assert.equal(inRange(empty, 5), true);
  });
});
