// Turning an uploaded image into avatar PNGs with sharp (loaded on first use, so a server that never
// sees an avatar never loads libvips). Only raster formats are accepted, recognized by their first
// bytes before any decoder sees the file: an HTML or SVG file is refused whatever its name says.
// Images are square-cropped around the centre, turned upright by their EXIF orientation, and
// written without any metadata (no EXIF, GPS or profiles). Animated images keep their first frame.
import { loadSharp } from './image-limits.js';
import { ApiError } from '../errors.js';
import { DEFAULT_AVATAR_SIZE, MEDIUM_AVATAR_SIZE } from './avatar-default.js';

/** The reference's MAX_AVATAR_FILE_SIZE_MIB (register's max_avatar_file_size_mib). */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;

/** The reference's limit on decoded pixels (IMAGE_BOMB_TOTAL_PIXELS): past it, a decompression bomb. */
export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;

export const NOT_AN_IMAGE = 'Could not decode image; did you upload an image file?';
export const IMAGE_TOO_LARGE = 'Image size exceeds limit.';

export class BadImageError extends ApiError {
  constructor(msg: string) {
    super(msg, { code: 'BAD_IMAGE' });
  }
}

const ascii = (head: Buffer, start: number, end: number) => head.subarray(start, end).toString('latin1');

/** Raster formats by their signatures; sharp's name for each. */
const SIGNATURES: Array<[string, (head: Buffer) => boolean]> = [
  ['png', (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['jpeg', (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff],
  ['gif', (h) => /^GIF8[79]a$/.test(ascii(h, 0, 6))],
  ['webp', (h) => ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 12) === 'WEBP'],
  ['tiff', (h) => ascii(h, 0, 4) === 'II*\0' || ascii(h, 0, 4) === 'MM\0*'],
  ['heif', (h) => ascii(h, 4, 8) === 'ftyp' && /^(avif|avis|heic|heix|mif1|msf1)$/.test(ascii(h, 8, 12))],
];

/** The raster format the file's first bytes announce, or null for anything else (markup, text, ...). */
export function rasterFormatOf(head: Buffer): string | null {
  return SIGNATURES.find(([, matches]) => matches(head))?.[0] ?? null;
}

export interface AvatarImages {
  /** DEFAULT_AVATAR_SIZE square PNG. */
  normal: Buffer;
  /** MEDIUM_AVATAR_SIZE square PNG. */
  medium: Buffer;
}


/**
 * The avatar PNGs of the image file at `path` (whose first bytes are `head`). Throws BadImageError
 * for anything that is not a decodable raster image or that has more pixels than the bomb limit.
 */
export async function avatarImages(path: string, head: Buffer): Promise<AvatarImages> {
  const format = rasterFormatOf(head);
  if (!format) throw new BadImageError(NOT_AN_IMAGE);
  const sharp = await loadSharp();
  const options = { limitInputPixels: IMAGE_BOMB_TOTAL_PIXELS, failOn: 'error' as const };
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The header alone: the size is known before a single pixel is decoded.
    const meta = await sharp(path, { ...options, limitInputPixels: false }).metadata();
    // What the signature promised must be what the decoder found.
    if (meta.format !== format) throw new BadImageError(NOT_AN_IMAGE);
    ({ width, height } = meta);
  } catch (error) {
    throw error instanceof BadImageError ? error : new BadImageError(NOT_AN_IMAGE);
  }
  if (!width || !height) throw new BadImageError(NOT_AN_IMAGE);
  if (width * height > IMAGE_BOMB_TOTAL_PIXELS) throw new BadImageError(IMAGE_TOO_LARGE);
  try {
    const crop = { fit: 'cover' as const, position: 'centre' as const };
    const medium = await sharp(path, options).rotate().resize(MEDIUM_AVATAR_SIZE, MEDIUM_AVATAR_SIZE, crop).png().toBuffer();
    // The small one from the medium one: a large original is decoded once.
    const normal = await sharp(medium).resize(DEFAULT_AVATAR_SIZE, DEFAULT_AVATAR_SIZE, crop).png().toBuffer();
    return { normal, medium };
  } catch (error) {
    if (/pixel limit/i.test(String((error as Error).message))) throw new BadImageError(IMAGE_TOO_LARGE);
    throw new BadImageError(NOT_AN_IMAGE);
  }
}
