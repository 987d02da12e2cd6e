import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emojiCharacters, emojiCodeForName, emojiNameForCode, normaliseEmojiCode } from './emoji.js';

describe('emoji table', () => {
  it('maps names and aliases to codes, and codes to the canonical name', () => {
    assert.equal(emojiCodeForName('+1'), '1f44d');
    assert.equal(emojiCodeForName('thumbsup'), '1f44d');
    assert.equal(emojiNameForCode('1f44d'), '+1');
    assert.equal(emojiCodeForName('no_such_emoji'), undefined);
  });

  it('drops the presentation selector from codes', () => {
    assert.equal(normaliseEmojiCode('2764-FE0F'), '2764');
    assert.equal(emojiCodeForName('heart'), '2764');
  });

  it('turns codes back into characters', () => {
    assert.equal(emojiCharacters('1f44d'), '👍');
    assert.equal(emojiCharacters('1f1fa-1f1f8'), '🇺🇸');
  });
});
