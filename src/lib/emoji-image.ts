// A custom emoji's image as Confab stores it: fitted into 64x64 on a transparent background,
// without metadata. Animated GIF and WebP stay animated, with a still PNG of the first frame for
// clients that should not animate; everything else becomes a PNG.
import { checkedImage, decodingImage, loadSharp, MAX_IMAGE_PIXELS } from './image-limits.js';

export const EMOJI_SIZE = 64;
/** The reference's MAX_EMOJI_FILE_SIZE_MIB. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

export interface EmojiImage {
  image: Buffer;
  extension: 'png' | 'gif' | 'webp';
  /** The first frame of an animated emoji; null for a still one. */
  still: Buffer | null;
}

const FIT = { width: EMOJI_SIZE, height: EMOJI_SIZE, fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } } as const;

export async function processEmojiImage(path: string): Promise<EmojiImage> {
  const meta = await checkedImage(path);
  const sharp = await loadSharp();
  const firstFrame = () => sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS }).resize(FIT).png().toBuffer();
  if (meta.frames > 1 && (meta.format === 'gif' || meta.format === 'webp')) {
    const format = meta.format;
    const animated = sharp(path, { animated: true, limitInputPixels: MAX_IMAGE_PIXELS }).resize(FIT);
    const image = await decodingImage(() => (format === 'gif' ? animated.gif() : animated.webp()).toBuffer());
    return { image, extension: format, still: await decodingImage(firstFrame) };
  }
  return { image: await decodingImage(firstFrame), extension: 'png', still: null };
}
