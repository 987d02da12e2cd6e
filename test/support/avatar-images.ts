// Images and non-images for the avatar tests, and the requests that upload and fetch avatars.
import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { UserRow } from '../../src/db/schema.js';
import { encodePng } from '../../src/lib/avatar-default.js';
import { ApiClient, type ApiResponse } from './client.js';
import { multipartBody, type MultipartPart } from './multipart.js';

/** A JPEG carrying EXIF (a copyright and a camera make) that avatars must not keep. */
export function jpegWithExif(width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'secret owner', Make: 'SpyCam' } })
    .toBuffer();
}

/** A 300 x 100 PNG in three bands, red, green and blue: a centred square crop is all green. */
export function bandedPng(): Promise<Buffer> {
  const width = 300;
  const height = 100;
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgb.set(x < 100 ? [255, 0, 0] : x < 200 ? [0, 255, 0] : [0, 0, 255], (y * width + x) * 3);
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** A one-frame GIF. */
export function gif(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 40, channels: 3, background: '#aa5500' } }).gif().toBuffer();
}

/**
 * A decompression bomb: a valid PNG header announcing 30000 x 30000 pixels (900 megapixels) over a
 * tiny compressed body; decoded, it would need gigabytes.
 */
export function pngBomb(): Buffer {
  const small = encodePng(1, Buffer.from([0, 0, 0]));
  const bomb = Buffer.from(small);
  // IHDR data starts at byte 16: width, then height; its CRC at 29 must be made again.
  bomb.writeUInt32BE(30_000, 16);
  bomb.writeUInt32BE(30_000, 20);
  const crcTable = (data: Buffer) => {
    let c = ~0;
    for (const byte of data) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  bomb.writeUInt32BE(crcTable(bomb.subarray(12, 29)), 29);
  return Buffer.concat([bomb.subarray(0, 33), pngChunkOf('IDAT', deflateSync(Buffer.alloc(64 * 1024))), bomb.subarray(bomb.length - 12)]);
}

function pngChunkOf(type: string, data: Buffer): Buffer {
  // Only the header is read before the bomb is refused; this chunk's CRC need not be right.
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  return Buffer.concat([head, data, Buffer.alloc(4)]);
}

export const HTML_AS_PNG = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
export const SVG_AS_PNG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
/** A PNG signature followed by garbage. */
export const BROKEN_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 0x41)]);

export function authOf(user: Pick<UserRow, 'delivery_email' | 'api_key'>): string {
  return ApiClient.basic(user.delivery_email, user.api_key);
}

/** POST /api/v1/users/me/avatar with the given parts (no user: no credentials). */
export async function postAvatar(app: FastifyInstance, user: Pick<UserRow, 'delivery_email' | 'api_key'> | null, parts: MultipartPart[], host?: string): Promise<ApiResponse> {
  const { payload, contentType } = multipartBody(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (user) headers.authorization = authOf(user);
  if (host) headers.host = host;
  const res = await app.inject({ method: 'POST', url: '/api/v1/users/me/avatar', headers, payload });
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
}

/** One file part named like the reference's tests name theirs. */
export const imagePart = (value: Buffer, filename = 'avatar.png', contentType = 'image/png'): MultipartPart => ({ name: 'f1', filename, value, contentType });
