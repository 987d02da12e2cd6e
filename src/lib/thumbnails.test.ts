import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { animatedGif, decompressionBomb, jpegWithExif, pngImage } from '../../test/support/upload-images.js';
import {
  displayedFormat,
  MAX_THUMBNAIL_INPUT_PIXELS,
  probeImage,
  renderThumbnail,
  THUMBNAIL_FORMATS,
  thumbnailFileName,
  thumbnailFormat,
  thumbnailKey,
  thumbnailUrl,
  withinPixelLimit,
} from './thumbnails.js';
import { cpuStopwatch } from '../../test/support/cpu-time.js';

const still = thumbnailFormat('840x560.webp')!;
const animated = thumbnailFormat('840x560-anim.webp')!;
const dir = mkdtempSync(join(tmpdir(), 'confab-thumbs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, data: Buffer | string): string {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
}

async function metadataOf(data: Buffer) {
  const sharp = (await import('sharp')).default;
  return sharp(data).metadata();
}

describe('thumbnail names', () => {
  it('names formats, keys, URLs and served names as the reference does', () => {
    assert.deepEqual(THUMBNAIL_FORMATS.map((f) => f.name), ['840x560.webp', '840x560-anim.webp']);
    assert.equal(displayedFormat({ frames: 1 }), still);
    assert.equal(displayedFormat({ frames: 3 }), animated);
    assert.equal(thumbnailKey('2/ab/xyz/cat.png', still), 'thumbnail/2/ab/xyz/cat.png/840x560.webp');
    assert.equal(thumbnailUrl('2/ab/xyz/chat ä.gif', { frames: 2 }), '/user_uploads/thumbnail/2/ab/xyz/chat%20%C3%A4.gif/840x560-anim.webp');
    assert.equal(thumbnailFileName('holiday.photo.jpeg'), 'holiday.photo.webp');
    assert.equal(thumbnailFileName('noext'), 'noext.webp');
    assert.equal(thumbnailFormat('../../etc/passwd'), undefined);
  });
});

describe('probeImage', () => {
  it('reads size and frames from images of the type they claim', async () => {
    assert.deepEqual(await probeImage(file('a.png', await pngImage(1200, 900)), 'image/png'), { width: 1200, height: 900, frames: 1 });
    assert.deepEqual(await probeImage(file('b.gif', await animatedGif(60, 40, 3)), 'image/gif'), { width: 60, height: 40, frames: 3 });
    assert.deepEqual(await probeImage(file('c.jpg', await jpegWithExif(100, 50)), 'image/jpeg'), { width: 100, height: 50, frames: 1 });
  });

  it('gives no preview to decompression bombs, liars, markup and non-images', async () => {
    assert.ok(30_000 * 30_000 > MAX_THUMBNAIL_INPUT_PIXELS);
    // Every frame counts: many frames of a modest size add up too.
    assert.equal(withinPixelLimit({ width: 2000, height: 2000, frames: 12 }), true);
    assert.equal(withinPixelLimit({ width: 2000, height: 2000, frames: 13 }), false);
    assert.equal(await probeImage(file('bomb.png', decompressionBomb()), 'image/png'), null);
    assert.equal(await probeImage(file('jpeg.png', await jpegWithExif(10, 10)), 'image/png'), null);
    assert.equal(await probeImage(file('svg.png', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'image/png'), null);
    assert.equal(await probeImage(file('x.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'image/svg+xml'), null);
    assert.equal(await probeImage(file('x.pdf', '%PDF-1.4'), 'application/pdf'), null);
    assert.equal(await probeImage(file('broken.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])), 'image/png'), null);
  });
});

describe('renderThumbnail', () => {
  it('fits an image inside 840x560 as WebP, never enlarging it', async () => {
    const big = await metadataOf(await renderThumbnail(Readable.from(await pngImage(1680, 2000)), still));
    assert.deepEqual([big.format, big.width, big.height], ['webp', 470, 560]);
    const small = await metadataOf(await renderThumbnail(Readable.from(await pngImage(30, 20)), still));
    assert.deepEqual([small.width, small.height], [30, 20]);
  });

  it('turns photos upright and strips their metadata', async () => {
    const thumb = await metadataOf(await renderThumbnail(Readable.from(await jpegWithExif(100, 50)), still));
    assert.deepEqual([thumb.width, thumb.height], [50, 100]);
    assert.equal(thumb.exif, undefined);
    assert.equal(thumb.orientation, undefined);
  });

  it('keeps animations animated in the animated format, and a still in the other', async () => {
    const gif = await animatedGif(1000, 800, 3);
    const moving = await metadataOf(await renderThumbnail(Readable.from(gif), animated));
    assert.deepEqual([moving.pages, moving.width, moving.height], [3, 700, 560]);
    const frozen = await metadataOf(await renderThumbnail(Readable.from(gif), still));
    assert.deepEqual([frozen.pages ?? 1, frozen.width, frozen.height], [1, 700, 560]);
  });

  it('refuses a bomb and broken data with an error, quickly', async () => {
    const cpuMs = cpuStopwatch();
    await assert.rejects(renderThumbnail(Readable.from(decompressionBomb()), still));
    await assert.rejects(renderThumbnail(Readable.from(Buffer.from('<html>not an image</html>')), still));
    assert.ok(cpuMs() < 5000);
  });
});
