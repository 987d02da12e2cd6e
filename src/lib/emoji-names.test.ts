// The reference's custom emoji name rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkEmojiName, normaliseEmojiName } from './emoji-names.js';

const message = (name: string) => {
  try {
    checkEmojiName(name);
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('custom emoji names', () => {
  it('stores spaces as underscores, trimmed', () => {
    assert.equal(normaliseEmojiName('  party time '), 'party_time');
  });

  it('takes lowercase letters, digits, dashes and underscores, ending with a letter or digit', () => {
    for (const name of ['a', '1', 'party_parrot', 'x-2', 'a_-_b9']) assert.equal(message(name), 'ok', name);
    for (const name of ['a_', 'b-', '_', '--']) assert.equal(message(name), 'Emoji names must end with either a letter or digit.', name);
    const chars = 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.';
    for (const name of ['A', 'a b', 'a.b', 'ä', 'a/b', 'a\u0000', '😀']) assert.equal(message(name), chars, name);
    assert.equal(message(''), 'Emoji name is missing');
    assert.equal(message('a'.repeat(100)), 'ok');
    assert.equal(message('a'.repeat(101)), 'Emoji name is too long (limit: 100 characters)');
  });
});
