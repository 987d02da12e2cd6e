import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { avatarColour, avatarInitial, defaultAvatarPng, encodePng } from './avatar-default.js';

/** The RGB rows of one of our own PNGs (8-bit RGB, one IDAT, filter 0 on every row). */
function decode(png: Buffer): { size: number; pixel(x: number, y: number): number[] } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const size = png.readUInt32BE(16);
  assert.equal(png.readUInt32BE(20), size);
  const idatLength = png.readUInt32BE(33);
  assert.equal(png.subarray(37, 41).toString('ascii'), 'IDAT');
  const raw = inflateSync(png.subarray(41, 41 + idatLength));
  return { size, pixel: (x, y) => [...raw.subarray(y * (size * 3 + 1) + 1 + x * 3, y * (size * 3 + 1) + 1 + x * 3 + 3)] };
}

describe('default avatars', () => {
  it('takes the first letter of the name, without accents, upper-cased; null for what the font lacks', () => {
    assert.equal(avatarInitial('mona Member'), 'M');
    assert.equal(avatarInitial('  émile'), 'E');
    assert.equal(avatarInitial('Øyvind'), null);
    assert.equal(avatarInitial('7 of nine'), '7');
    assert.equal(avatarInitial('李小龍'), null);
    assert.equal(avatarInitial('🙂 smiley'), null);
    assert.equal(avatarInitial(''), null);
  });

  it('draws white ink centred on the colour of the user id, at the asked size', () => {
    for (const size of [100, 500]) {
      const png = decode(defaultAvatarPng(42, 'Mona', size));
      assert.equal(png.size, size);
      assert.deepEqual(png.pixel(0, 0), [...avatarColour(42)]);
      assert.deepEqual(png.pixel(size - 1, size - 1), [...avatarColour(42)]);
      // M's left stem runs down the left of the glyph's box, which is about half the height, centred.
      const stemX = Math.floor(size / 2 - (Math.floor((size * 0.5) / 7) * 5) / 2) + 1;
      assert.deepEqual(png.pixel(stemX, Math.floor(size / 2)), [255, 255, 255]);
    }
  });

  it('gives different users different colours, and the same user the same image', () => {
    assert.notDeepEqual(avatarColour(1), avatarColour(2));
    assert.deepEqual(defaultAvatarPng(5, 'Ada', 100), defaultAvatarPng(5, 'Ada', 100));
    assert.notDeepEqual(defaultAvatarPng(5, 'Ada', 100), defaultAvatarPng(5, 'Bea', 100));
  });

  it('draws a symmetric pattern from the id when the name starts with something the font lacks', () => {
    const png = decode(defaultAvatarPng(77, '李小龍', 100));
    const ink = (x: number, y: number) => png.pixel(x, y)[0] === 255 && png.pixel(x, y)[1] === 255;
    let inked = 0;
    for (let y = 0; y < 100; y++) {
      for (let x = 0; x < 100; x++) {
        if (ink(x, y)) inked++;
        assert.equal(ink(x, y), ink(99 - x, y), `mirror at ${x},${y}`);
      }
    }
    assert.ok(inked > 0);
    assert.notDeepEqual(defaultAvatarPng(77, '李', 100), defaultAvatarPng(78, '李', 100));
  });

  it('encodes a valid PNG of any square', () => {
    const png = decode(encodePng(2, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])));
    assert.deepEqual([png.pixel(0, 0), png.pixel(1, 1)], [[1, 2, 3], [10, 11, 12]]);
  });
});
