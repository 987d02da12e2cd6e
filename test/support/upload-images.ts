// Images for the upload and thumbnail tests, made on the spot: real PNG, JPEG (with EXIF that
// must not survive) and animated GIF files from sharp, and a decompression bomb written by hand.
import { crc32, deflateSync } from 'node:zlib';

async function sharp() {
  return (await import('sharp')).default;
}

export async function pngImage(width: number, height: number): Promise<Buffer> {
  return (await sharp())({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
}

/** A JPEG whose EXIF says "rotate 90°" and carries a camera owner's name. */
export async function jpegWithExif(width: number, height: number): Promise<Buffer> {
  return (await sharp())({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Artist: 'Secret Photographer' } } })
    .toBuffer();
}

export async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * frames * 4);
  for (let i = 0; i < raw.length; i += 4) {
    raw[i] = Math.floor(i / (width * height * 4)) * 90;
    raw[i + 3] = 255;
  }
  return (await sharp())(raw, { raw: { width, height: height * frames, channels: 4, pageHeight: height } }).gif({ loop: 0 }).toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of a few kilobytes that claims `side` x `side` grey pixels: its first rows are real
 * compressed zeros, so a decoder would start allocating for the whole canvas.
 */
export function decompressionBomb(side = 30_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc((side + 1) * 64));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}
