// Emoji spans from the server's rendering shown as the characters they name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emojiFromClass } from '../src/emoji.js';

describe('emoji in messages', () => {
  it("reads the code points of an emoji span's class", () => {
    assert.equal(emojiFromClass('emoji emoji-1f389'), '🎉');
    assert.equal(emojiFromClass('emoji emoji-1f44d'), '👍');
    assert.equal(emojiFromClass('emoji emoji-1f468-200d-1f4bb'), '👨‍💻');
  });

  it('leaves other spans and impossible codes alone', () => {
    assert.equal(emojiFromClass('emoji'), null);
    assert.equal(emojiFromClass('user-mention'), null);
    assert.equal(emojiFromClass('emoji emoji-110000'), null);
  });
});
