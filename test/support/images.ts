// Images for upload tests, made with sharp (and one crafted by hand): plain and animated images,
// liars and a decompression bomb; and posting one as a multipart upload.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { DevUserName } from '../../src/dev-seed.js';
import { type ApiResponse, ApiClient } from './client.js';
import type { TestContext } from './context.js';
import { multipartBody, type MultipartPart } from './multipart.js';
import { checkResponse } from './openapi-check.js';

export function pngImage(width: number, height: number, color = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: color } }).png().toBuffer();
}

/** A JPEG carrying EXIF metadata (a camera's make), which stored images must not keep. */
export function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 80, height: 80, channels: 3, background: '#aa4411' } })
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'Secret Person' } })
    .jpeg()
    .toBuffer();
}

/** A two-frame GIF, wider than tall. */
export async function animatedGif(width = 120, height = 80): Promise<Buffer> {
  const frames = await Promise.all(['#ff0000', '#0000ff'].map((c) => pngImage(width, height, c)));
  return sharp(frames, { join: { animated: true } }).gif({ delay: [100, 100] }).toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A tiny PNG whose header claims width x height pixels: a decoder that believes it runs out of memory. */
export function pixelBomb(width = 50_000, height = 50_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', Buffer.alloc(16)), pngChunk('IEND', Buffer.alloc(0))]);
}

export const HTML_AS_PNG = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
export const SVG_AS_PNG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');

/** POSTs multipart parts to an /api/v1 path as a dev user (null: no credentials). */
export async function postMultipart(
  ctx: TestContext,
  name: DevUserName | null,
  path: string,
  parts: MultipartPart[],
  options: { undocumented?: boolean; query?: string } = {},
): Promise<ApiResponse> {
  const { payload, contentType } = multipartBody(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (name) headers.authorization = ApiClient.basic(ctx.seed.users[name].delivery_email, ctx.seed.users[name].api_key);
  const res = await ctx.app.inject({ method: 'POST', url: `/api/v1${path}${options.query ? `?${options.query}` : ''}`, headers, payload });
  const response = { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
  if (!options.undocumented) checkResponse('POST', path, response);
  return response;
}

export const filePart = (value: Buffer, filename = 'emoji.png', contentType = 'image/png'): MultipartPart => ({ name: 'file', filename, value, contentType });
