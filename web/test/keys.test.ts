// Keyboard shortcuts without a browser: which key means what and when a field keeps its keys, where
// the selection moves, and which unread topic comes next.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { focusOf, moveSelection, nextUnreadTopic, SHORTCUT_HELP, shortcutFor } from '../src/keys.js';
import { fromRegister, type Model, type UnreadInfo } from '../src/model.js';

const el = (tagName: string, attributes: Record<string, string> = {}, isContentEditable = false) => ({
  tagName: tagName.toUpperCase(),
  isContentEditable,
  getAttribute: (name: string) => attributes[name] ?? null,
});

describe('shortcut keys', () => {
  it("maps Zulip's everyday keys on the page", () => {
    const on = (key: string) => shortcutFor({ key, focus: 'page' });
    assert.deepEqual(
      ['j', 'ArrowDown', 'k', 'ArrowUp', 'Enter', 'r', 'c', 'x', 'n', 'p', 'Escape', '/', '*', 'e', '?', 'Home', 'End'].map(on),
      ['next', 'next', 'previous', 'previous', 'reply', 'reply', 'new-topic', 'new-dm', 'next-unread-topic', 'next-unread-dm', 'escape', 'search', 'star', 'edit', 'help', 'first', 'last'],
    );
    assert.equal(on('J'), null);
    assert.equal(on('q'), null);
  });

  it('leaves keys with Ctrl, Cmd or Alt to the browser', () => {
    assert.equal(shortcutFor({ key: 'r', ctrlKey: true, focus: 'page' }), null);
    assert.equal(shortcutFor({ key: 'k', metaKey: true, focus: 'page' }), null);
    assert.equal(shortcutFor({ key: 'j', altKey: true, focus: 'page' }), null);
  });

  it('lets a text field keep every key but Esc', () => {
    for (const key of ['j', 'k', 'r', 'Enter', '/', '?', '*', 'ArrowDown']) assert.equal(shortcutFor({ key, focus: 'text' }), null, key);
    assert.equal(shortcutFor({ key: 'Escape', focus: 'text' }), 'escape');
  });

  it('lets links and buttons keep Enter and the arrows, but not the letter keys', () => {
    assert.equal(shortcutFor({ key: 'Enter', focus: 'control' }), null);
    assert.equal(shortcutFor({ key: 'ArrowDown', focus: 'control' }), null);
    assert.equal(shortcutFor({ key: 'j', focus: 'control' }), 'next');
    assert.equal(shortcutFor({ key: 'End', focus: 'control' }), 'last');
  });

  it('tells text fields from controls and the page', () => {
    assert.equal(focusOf(el('textarea')), 'text');
    assert.equal(focusOf(el('input')), 'text');
    assert.equal(focusOf(el('input', { type: 'search' })), 'text');
    assert.equal(focusOf(el('input', { type: 'checkbox' })), 'control');
    assert.equal(focusOf(el('select')), 'text');
    assert.equal(focusOf(el('div', {}, true)), 'text');
    assert.equal(focusOf(el('div', { role: 'combobox' })), 'text');
    assert.equal(focusOf(el('a')), 'control');
    assert.equal(focusOf(el('button')), 'control');
    assert.equal(focusOf(el('body')), 'page');
    assert.equal(focusOf(null), 'page');
  });

  it('lists every shortcut in the help panel', () => {
    const listed = SHORTCUT_HELP.flatMap((s) => s.keys);
    for (const key of ['j', 'k', 'Enter', 'r', 'c', 'x', 'n', 'p', 'Esc', '/', '*', 'e', '?']) assert.ok(listed.includes(key), key);
  });
});

describe('moving the selection', () => {
  const ids = [10, 20, 30, 40];

  it('steps to the next and previous message, stopping at the ends', () => {
    assert.equal(moveSelection(ids, 20, 'next'), 30);
    assert.equal(moveSelection(ids, 20, 'previous'), 10);
    assert.equal(moveSelection(ids, 40, 'next'), 40);
    assert.equal(moveSelection(ids, 10, 'previous'), 10);
    assert.equal(moveSelection(ids, 30, 'first'), 10);
    assert.equal(moveSelection(ids, 30, 'last'), 40);
  });

  it('starts at an end without a selection, and steps from where a vanished one would be', () => {
    assert.equal(moveSelection(ids, null, 'next'), 10);
    assert.equal(moveSelection(ids, null, 'previous'), 40);
    assert.equal(moveSelection(ids, 25, 'next'), 30);
    assert.equal(moveSelection(ids, 25, 'previous'), 20);
    assert.equal(moveSelection(ids, 99, 'previous'), 40);
    assert.equal(moveSelection([], 10, 'next'), null);
  });
});

function model(unread: [number, UnreadInfo][]): Model {
  return {
    ...fromRegister({ user_id: 1, full_name: 'Me', email: 'me@x', realm_name: 'R' }),
    streams: new Map([
      [1, { stream_id: 1, name: 'general', color: '' }],
      [2, { stream_id: 2, name: 'design', color: '' }],
    ]),
    unread: new Map(unread),
  };
}
const s = (streamId: number, topic: string): UnreadInfo => ({ kind: 'stream', streamId, topic, mentioned: false });
const dm: UnreadInfo = { kind: 'dm', conversation: '4', mentioned: false };

describe('the next unread topic (n)', () => {
  // Streams in sidebar order: design (2), then general (1).
  const m = model([[5, s(1, 'lunch')], [3, s(1, 'Lunch')], [9, s(1, 'builds')], [7, s(2, 'logo')], [8, dm]]);

  it('goes through topics in sidebar stream order, oldest unread first, and wraps around', () => {
    assert.deepEqual(nextUnreadTopic(m, { kind: 'all' }), { kind: 'stream', streamId: 2, topic: 'logo' });
    assert.deepEqual(nextUnreadTopic(m, { kind: 'stream', streamId: 2, topic: 'logo' }), { kind: 'stream', streamId: 1, topic: 'Lunch' });
    // Topics compare without case: "lunch" is the topic just visited.
    assert.deepEqual(nextUnreadTopic(m, { kind: 'stream', streamId: 1, topic: 'lunch' }), { kind: 'stream', streamId: 1, topic: 'builds' });
    assert.deepEqual(nextUnreadTopic(m, { kind: 'stream', streamId: 1, topic: 'builds' }), { kind: 'stream', streamId: 2, topic: 'logo' });
  });

  it('starts inside the open stream', () => {
    assert.deepEqual(nextUnreadTopic(m, { kind: 'stream', streamId: 1 }), { kind: 'stream', streamId: 1, topic: 'Lunch' });
  });

  it('has nowhere to go when the open topic is the only unread one, or nothing is unread', () => {
    assert.equal(nextUnreadTopic(model([[4, s(1, 'only')]]), { kind: 'stream', streamId: 1, topic: 'only' }), null);
    assert.equal(nextUnreadTopic(model([[8, dm]]), { kind: 'all' }), null);
  });
});
