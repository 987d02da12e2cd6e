// What every image Confab decodes (emoji, organization icons and logos) must respect, and the
// reference's errors when it does not. sharp is loaded on first use so an idle server never loads it.
import type { Metadata } from 'sharp';
import { ApiError } from '../errors.js';

/** Decoded pixels allowed per image, all frames together: a decompression bomb stops here. */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** Formats accepted as uploaded images; anything else (SVG, HTML, PDF...) is refused. */
const IMAGE_FORMATS: readonly string[] = ['png', 'jpeg', 'gif', 'webp'];

export class BadImageError extends ApiError {
  constructor(msg = 'Could not decode image; did you upload an image file?') {
    super(msg, { code: 'BAD_IMAGE' });
  }
}

export type SharpModule = typeof import('sharp').default;
let sharpModule: Promise<SharpModule> | undefined;

/** sharp, loaded once on first use by every image path (thumbnails, avatars, emoji, icons). */
export function loadSharp(): Promise<SharpModule> {
  sharpModule ??= import('sharp').then((m) => {
    const sharp = m.default;
    // Each image is read once: libvips' operation cache would only hold memory (up to 50 MB).
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}

/** Runs sharp work, turning its decoding failures into the reference's errors. */
export async function decodingImage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (/pixel limit/i.test(String((error as Error)?.message))) throw new BadImageError('Image size exceeds limit.');
    throw new BadImageError();
  }
}

/** The header of the image in a file, checked to be a raster image of bounded size. */
export async function checkedImage(path: string): Promise<Metadata & { frames: number; frameHeight: number }> {
  const sharp = await loadSharp();
  const meta = await decodingImage(() => sharp(path, { animated: true, limitInputPixels: MAX_IMAGE_PIXELS }).metadata());
  if (!meta.format || !IMAGE_FORMATS.includes(meta.format) || !meta.width || !meta.height) throw new BadImageError();
  const frames = meta.pages ?? 1;
  const frameHeight = meta.pageHeight ?? meta.height;
  if (meta.width * frameHeight * frames > MAX_IMAGE_PIXELS) throw new BadImageError('Image size exceeds limit.');
  return { ...meta, frames, frameHeight };
}
