// The organization's icon and logos as stored: the icon a 100x100 PNG (cropped to the centre),
// a logo a PNG at most 800x100. Without an uploaded icon, one is drawn here from the
// organization's id: a symmetric 5x5 pattern in one colour, so no outside service is asked.
import { createHash } from 'node:crypto';
import { checkedImage, decodingImage, loadSharp, MAX_IMAGE_PIXELS } from './image-limits.js';

export const ICON_SIZE = 100;
export const LOGO_HEIGHT = 100;
export const LOGO_MAX_WIDTH = 8 * LOGO_HEIGHT;
/** The reference's MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB. */
export const MAX_ICON_FILE_SIZE_MIB = 5;
export const MAX_LOGO_FILE_SIZE_MIB = 5;

export async function processRealmIcon(path: string): Promise<Buffer> {
  await checkedImage(path);
  const sharp = await loadSharp();
  return decodingImage(() => sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS }).resize(ICON_SIZE, ICON_SIZE, { fit: 'cover' }).png().toBuffer());
}

export async function processRealmLogo(path: string): Promise<Buffer> {
  await checkedImage(path);
  const sharp = await loadSharp();
  return decodingImage(() =>
    sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS })
      .resize(LOGO_MAX_WIDTH, LOGO_HEIGHT, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer(),
  );
}

const CELLS = 5;
const CELL = ICON_SIZE / CELLS;

/** Which cells of the default icon are filled, and their colour, from a seed (pure, for tests). */
export function defaultIconPattern(seed: string): { filled: boolean[][]; rgb: [number, number, number] } {
  const hash = createHash('sha256').update(seed).digest();
  const filled: boolean[][] = [];
  for (let row = 0; row < CELLS; row++) {
    const line: boolean[] = [];
    for (let col = 0; col < CELLS; col++) {
      const source = col < 3 ? col : CELLS - 1 - col; // mirrored left to right
      line.push((hash[row * 3 + source]! & 1) === 1);
    }
    filled.push(line);
  }
  // A colour dark enough for white text around it, never grey.
  const rgb: [number, number, number] = [40 + (hash[20]! % 140), 40 + (hash[21]! % 140), 40 + (hash[22]! % 140)];
  return { filled, rgb };
}

export async function drawDefaultIcon(seed: string): Promise<Buffer> {
  const { filled, rgb } = defaultIconPattern(seed);
  const pixels = Buffer.alloc(ICON_SIZE * ICON_SIZE * 3, 0xf0);
  for (let y = 0; y < ICON_SIZE; y++) {
    for (let x = 0; x < ICON_SIZE; x++) {
      if (!filled[Math.floor(y / CELL)]![Math.floor(x / CELL)]) continue;
      pixels.set(rgb, (y * ICON_SIZE + x) * 3);
    }
  }
  const sharp = await loadSharp();
  return sharp(pixels, { raw: { width: ICON_SIZE, height: ICON_SIZE, channels: 3 } }).png().toBuffer();
}
