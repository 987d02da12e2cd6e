// The emoji picker's search: exact names, then word starts, then anywhere; popular ones first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type PickerEmoji, searchEmoji } from '../src/emoji-search.js';

const emoji = (code: string, ...names: string[]): PickerEmoji => ({ emoji_name: names[0]!, emoji_code: code, reaction_type: 'unicode_emoji', names });
const ALL = [
  emoji('1f600', 'grinning'),
  emoji('1f44d', '+1', 'thumbs_up', 'like'),
  emoji('1f44e', '-1', 'thumbs_down'),
  emoji('1f389', 'tada'),
  emoji('1f3d3', 'ping_pong'),
  emoji('1f4cc', 'push_pin'),
  { emoji_name: 'party_parrot', emoji_code: '17', reaction_type: 'realm_emoji', names: ['party_parrot'] } as PickerEmoji,
];
const names = (list: PickerEmoji[]) => list.map((e) => e.emoji_name);

describe('emoji search', () => {
  it('puts the everyday reactions first when nothing is typed, then custom emoji, then faces before things', () => {
    assert.deepEqual(names(searchEmoji(ALL, '')), ['+1', 'tada', 'party_parrot', 'grinning', '-1', 'push_pin', 'ping_pong']);
  });

  it('finds aliases, ranking exact names over word starts over anywhere', () => {
    assert.deepEqual(names(searchEmoji(ALL, 'like')), ['+1']);
    assert.deepEqual(names(searchEmoji(ALL, 'thumbs')), ['+1', '-1']);
    assert.deepEqual(names(searchEmoji(ALL, 'p')), ['ping_pong', 'push_pin', 'party_parrot', '+1']);
    assert.deepEqual(names(searchEmoji(ALL, 'pong')), ['ping_pong']);
    assert.deepEqual(names(searchEmoji(ALL, 'arr')), ['party_parrot']);
  });

  it('reads spaces, dashes and colons as Zulip names spell them', () => {
    assert.deepEqual(names(searchEmoji(ALL, ':thumbs down:')), ['-1']);
    assert.deepEqual(names(searchEmoji(ALL, 'PUSH-PIN')), ['push_pin']);
    assert.deepEqual(names(searchEmoji(ALL, 'nothing like this')), []);
  });
});
