import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { avatarImages, BadImageError, IMAGE_TOO_LARGE, NOT_AN_IMAGE, rasterFormatOf } from './images.js';
import { cpuStopwatch } from '../../test/support/cpu-time.js';

const dir = mkdtempSync(join(tmpdir(), 'confab-images-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function file(data: Buffer): { path: string; head: Buffer } {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, data);
  return { path, head: data.subarray(0, 512) };
}

async function refused(data: Buffer, msg: string) {
  const { path, head } = file(data);
  await assert.rejects(avatarImages(path, head), (error: unknown) => error instanceof BadImageError && error.message === msg && error.code === 'BAD_IMAGE');
}

describe('avatar images', () => {
  it('recognizes raster formats by their first bytes only', () => {
    const sig = (hex: string, tail = '') => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.from(tail, 'latin1')]);
    assert.equal(rasterFormatOf(sig('89504e470d0a1a0a')), 'png');
    assert.equal(rasterFormatOf(sig('ffd8ffe0')), 'jpeg');
    assert.equal(rasterFormatOf(Buffer.from('GIF89a...')), 'gif');
    assert.equal(rasterFormatOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'webp');
    assert.equal(rasterFormatOf(Buffer.from('II*\0xxxx')), 'tiff');
    assert.equal(rasterFormatOf(Buffer.from('\0\0\0\x1cftypavif')), 'heif');
    for (const text of ['<svg xmlns="http://www.w3.org/2000/svg"/>', '<!doctype html>', '%PDF-1.7', 'GIF', '']) {
      assert.equal(rasterFormatOf(Buffer.from(text)), null, text);
    }
  });

  it('makes square PNGs of 100 and 500 pixels, upright, with no metadata', async () => {
    // A tall JPEG whose EXIF says to turn it a quarter: upright it is wide, and still cropped square.
    const jpeg = await sharp({ create: { width: 60, height: 120, channels: 3, background: '#884422' } })
      .jpeg()
      .withExif({ IFD0: { Orientation: '6', Copyright: 'me', Make: 'Cam' } })
      .toBuffer();
    const { path, head } = file(jpeg);
    const { normal, medium } = await avatarImages(path, head);
    for (const [png, size] of [[normal, 100], [medium, 500]] as const) {
      const meta = await sharp(png).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height, meta.exif, meta.icc, meta.orientation], ['png', size, size, undefined, undefined, undefined]);
    }
  });

  it('keeps the first frame of an animated image', async () => {
    const frame = (colour: string) => sharp({ create: { width: 20, height: 40, channels: 3, background: colour } }).png().toBuffer();
    const animated = await sharp([await frame('#00ff00'), await frame('#ff0000')], { join: { animated: true } }).gif().toBuffer();
    assert.equal((await sharp(animated).metadata()).pages, 2);
    const { path, head } = file(animated);
    const { normal } = await avatarImages(path, head);
    const meta = await sharp(normal).metadata();
    assert.deepEqual([meta.pages, meta.width, meta.height], [undefined, 100, 100]);
    const { data } = await sharp(normal).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([data[0], data[1], data[2]], [0, 255, 0]);
  });

  it('refuses what is not a raster image, or claims to be one and is not', async () => {
    await refused(Buffer.alloc(0), NOT_AN_IMAGE);
    await refused(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>'), NOT_AN_IMAGE);
    await refused(Buffer.from('<html><body>hi</body></html>'), NOT_AN_IMAGE);
    await refused(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(100, 1)]), NOT_AN_IMAGE);
    // A PNG signature in front of a JPEG: the decoder finds something else than promised.
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toBuffer();
    await refused(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), jpeg]), NOT_AN_IMAGE);
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer();
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(20_000, 16);
    bomb.writeUInt32BE(20_000, 20);
    const cpuMs = cpuStopwatch();
    await refused(bomb, IMAGE_TOO_LARGE);
    assert.ok(cpuMs() < 1000);
  });
});
