// Thumbnails of uploaded images: which uploads get one, where they live and are served, and the
// sharp work of probing an image and resizing it. sharp is loaded on first use only.
import { loadSharp } from './image-limits.js';
import type { Readable } from 'node:stream';

export interface ThumbnailFormat {
  /** The last path component of its URL and storage key. */
  name: string;
  maxWidth: number;
  maxHeight: number;
  /** Made only for animated images, and kept animated. */
  animated: boolean;
}

/** The reference's formats: fit inside 840x560, as WebP, a still and (for animated images) an animation. */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { name: '840x560.webp', maxWidth: 840, maxHeight: 560, animated: false },
  { name: '840x560-anim.webp', maxWidth: 840, maxHeight: 560, animated: true },
];

export const THUMBNAIL_CONTENT_TYPE = 'image/webp';

/**
 * Images larger than this (width x height x frames) get no thumbnail: a small file can claim a huge
 * canvas (a decompression bomb), and decoding one would take the server's memory.
 */
export const MAX_THUMBNAIL_INPUT_PIXELS = 50_000_000;
/** A thumbnail that takes longer than this is given up (the original stays linked). */
export const THUMBNAIL_TIMEOUT_SECONDS = 20;

/** Stored types worth a preview, and the decoder sharp must find for each (never SVG or PDF). */
const PREVIEWABLE: Record<string, string> = {
  'image/png': 'png',
  'image/apng': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'heif',
};

export interface ImageFacts {
  /** One frame's size in pixels. */
  width: number;
  height: number;
  frames: number;
}

export function isPreviewableType(contentType: string): boolean {
  return Object.hasOwn(PREVIEWABLE, contentType);
}

export function thumbnailFormat(name: string): ThumbnailFormat | undefined {
  return THUMBNAIL_FORMATS.find((f) => f.name === name);
}

/** The format a message shows: the animation for animated images, else the still. */
export function displayedFormat(image: Pick<ImageFacts, 'frames'>): ThumbnailFormat {
  return THUMBNAIL_FORMATS.find((f) => f.animated === image.frames > 1)!;
}

/** Whether an image has (or gets) a thumbnail in this format. */
export function hasFormat(image: Pick<ImageFacts, 'frames'>, format: ThumbnailFormat): boolean {
  return !format.animated || image.frames > 1;
}

/** Thumbnails live beside the uploads, under their own prefix, one key per format. */
export function thumbnailKey(pathId: string, format: ThumbnailFormat): string {
  return `thumbnail/${pathId}/${format.name}`;
}

/** The URL messages show for an uploaded image. */
export function thumbnailUrl(pathId: string, image: Pick<ImageFacts, 'frames'>): string {
  return `/user_uploads/thumbnail/${encodeURI(pathId)}/${displayedFormat(image).name}`;
}

/** The file name a thumbnail is served under: the original's stem with the format's extension. */
export function thumbnailFileName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return `${dot > 0 ? fileName.slice(0, dot) : fileName}.webp`;
}

/** Whether an image of this size may be decoded. */
export function withinPixelLimit(image: ImageFacts): boolean {
  return image.width * image.height * image.frames <= MAX_THUMBNAIL_INPUT_PIXELS;
}



/**
 * The size of an image file from its header alone, or null when it gets no preview: not a
 * previewable type, not what its type says, unreadable, or too large to decode.
 */
export async function probeImage(filePath: string, contentType: string): Promise<ImageFacts | null> {
  const decoder = PREVIEWABLE[contentType];
  if (!decoder) return null;
  const sharp = await loadSharp();
  try {
    // The limit is checked below, over every frame; sharp's own check would refuse only the worst.
    const meta = await sharp(filePath, { limitInputPixels: false }).metadata();
    if (meta.format !== decoder || !meta.width || !meta.height) return null;
    const facts = { width: meta.width, height: meta.height, frames: Math.max(1, meta.pages ?? 1) };
    return withinPixelLimit(facts) ? facts : null;
  } catch {
    return null;
  }
}

/**
 * A thumbnail of the image read from `source`: turned upright, fit inside the format's box (never
 * enlarged), every frame kept for animated formats, and no metadata (EXIF, GPS, ICC) carried over.
 */
export async function renderThumbnail(source: Readable, format: ThumbnailFormat): Promise<Buffer> {
  const sharp = await loadSharp();
  const pipeline = sharp({ animated: format.animated, limitInputPixels: MAX_THUMBNAIL_INPUT_PIXELS })
    .rotate()
    .resize({ width: format.maxWidth, height: format.maxHeight, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .timeout({ seconds: THUMBNAIL_TIMEOUT_SECONDS });
  source.on('error', (error) => pipeline.destroy(error));
  source.pipe(pipeline);
  return pipeline.toBuffer();
}
