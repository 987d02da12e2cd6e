import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { emojiCharacters, emojiCodeForName, emojiNameForCode, emojiTable, normaliseEmojiCode } from './emoji.js';

/** The names file the table is built from (scripts/emoji/zulip-emoji-names.txt). */
function sourceLines(): Array<[string, string[]]> {
  const text = readFileSync(new URL('../../scripts/emoji/zulip-emoji-names.txt', import.meta.url), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [code = '', ...names] = line.split(' ');
      return [code, names];
    });
}

describe('emoji table', () => {
  it("follows Zulip's names, not emoji-datasource's", () => {
    assert.equal(emojiCodeForName('+1'), '1f44d');
    assert.equal(emojiCodeForName('thumbs_up'), '1f44d');
    assert.equal(emojiCodeForName('like'), '1f44d');
    assert.equal(emojiNameForCode('1f44d'), '+1');
    assert.equal(emojiCodeForName('smile'), '1f642');
    assert.equal(emojiCodeForName('big_smile'), '1f604');
    assert.equal(emojiNameForCode('1f604'), 'big_smile');
    assert.equal(emojiCodeForName('octopus'), '1f419');
    assert.equal(emojiCodeForName('heart'), '2764');
    assert.equal(emojiCodeForName('flag_united_states'), '1f1fa-1f1f8');
    assert.equal(emojiCodeForName('woman_running'), '1f3c3-200d-2640');
  });

  it('knows no emoji-datasource-only names', () => {
    assert.equal(emojiCodeForName('thumbsup'), undefined);
    assert.equal(emojiCodeForName('no_such_emoji'), undefined);
    assert.equal(emojiNameForCode('1f550'), undefined); // Zulip leaves most clock faces out.
  });

  it('keeps every name and alias of the source, the canonical name first', () => {
    const lines = sourceLines();
    assert.equal(lines.length, 1847);
    let names = 0;
    for (const [code, [canonical, ...aliases]] of lines) {
      assert.equal(emojiNameForCode(code), canonical, code);
      for (const name of [canonical!, ...aliases]) assert.equal(emojiCodeForName(name), code, name);
      assert.deepEqual(emojiTable().codeToNames[code], [canonical, ...aliases]);
      names += 1 + aliases.length;
    }
    assert.equal(names, 2956);
    assert.equal(emojiTable().codeByName.size, names);
  });

  it('keeps non-ASCII names beside their ASCII aliases', () => {
    assert.equal(emojiCodeForName('flag_åland_islands'), '1f1e6-1f1fd');
    assert.equal(emojiCodeForName('flag_aland_islands'), '1f1e6-1f1fd');
    assert.equal(emojiCodeForName('ココ'), '1f201');
  });

  it("maps Zulip's emoticons to emoji in the table", () => {
    const { emoticons } = emojiTable();
    assert.equal(emoticons.size, 12);
    assert.equal(emoticons.get(':)'), 'smile');
    assert.equal(emoticons.get('<3'), 'heart');
    assert.equal(emoticons.get(':P'), 'stuck_out_tongue');
    for (const name of emoticons.values()) assert.notEqual(emojiCodeForName(name), undefined, name);
  });

  it('drops the presentation selector from codes', () => {
    assert.equal(normaliseEmojiCode('2764-FE0F'), '2764');
    assert.equal(normaliseEmojiCode('1F3CB-FE0F-200D-2640-FE0F'), '1f3cb-200d-2640');
  });

  it('turns codes back into characters', () => {
    assert.equal(emojiCharacters('1f44d'), '👍');
    assert.equal(emojiCharacters('1f1fa-1f1f8'), '🇺🇸');
  });
});
