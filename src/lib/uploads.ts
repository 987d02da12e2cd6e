// Rules for uploaded files, without I/O: stored names, types, which types a browser may show
// inline, the Content-Disposition header, byte ranges, and the /user_uploads/ links in messages.

/** Types shown inline; everything else is served as an attachment (the reference's list). */
export const INLINE_MIME_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'audio/aac', 'audio/flac', 'audio/mp4', 'audio/mpeg', 'audio/wav', 'audio/webm',
  'image/apng', 'image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp',
  'text/plain',
  'video/mp4', 'video/webm',
  // Never add active types here (text/html, image/svg+xml, application/xhtml+xml, text/xml, ...).
]);

const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', apng: 'image/apng', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif',
  webp: 'image/webp', avif: 'image/avif', svg: 'image/svg+xml', bmp: 'image/bmp', ico: 'image/vnd.microsoft.icon',
  txt: 'text/plain', log: 'text/plain', md: 'text/markdown', csv: 'text/csv', html: 'text/html', htm: 'text/html',
  xml: 'text/xml', json: 'application/json', js: 'text/javascript', css: 'text/css', zip: 'application/zip',
  gz: 'application/gzip', tar: 'application/x-tar', mp3: 'audio/mpeg', wav: 'audio/wav', flac: 'audio/flac',
  aac: 'audio/aac', m4a: 'audio/mp4', mp4: 'video/mp4', webm: 'video/webm', doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const OCTET_STREAM = 'application/octet-stream';
const MAX_NAME_BYTES = 200;
const MAX_DISPLAY_NAME = 255;
// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The type a file name suggests, or null. */
export function typeFromName(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? null : (BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null);
}

/** The last path component of a client's file name, without control characters, bounded. */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const clean = base.replace(CONTROL, '').trim();
  return shorten(clean === '' || clean === '.' || clean === '..' ? 'uploaded-file' : clean, (n) => [...n].length <= MAX_DISPLAY_NAME);
}

/** Drops characters from the end of the stem, keeping a short extension, until the name fits. */
function shorten(name: string, fits: (name: string) => boolean): string {
  if (fits(name)) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  const stem = [...name.slice(0, name.length - ext.length)];
  let low = 0;
  let high = stem.length;
  // The longest stem that fits, found by halving.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(stem.slice(0, mid).join('') + ext)) low = mid;
    else high = mid - 1;
  }
  return stem.slice(0, low).join('') + ext;
}

/** A name safe on any file system, in S3 and in a URL: letters, digits, '_', '.', '-' (as the reference's sanitize_name). */
export function storedName(raw: string): string {
  let name = displayName(raw).normalize('NFKC').replace(/[^\p{L}\p{N}_\s.-]/gu, '').trim().replace(/[-\s]+/g, '-');
  if (name === '' || /^\.+$/.test(name)) return 'uploaded-file';
  // File systems allow 255 bytes a name.
  return shorten(name, (n) => Buffer.byteLength(n) <= MAX_NAME_BYTES);
}

const MAGIC: Record<string, (head: Buffer) => boolean> = {
  'image/png': (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  'image/gif': (h) => /^GIF8[79]a/.test(h.subarray(0, 6).toString('latin1')),
  'image/webp': (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  'image/avif': (h) => h.subarray(4, 12).toString('latin1') === 'ftypavif',
  'application/pdf': (h) => h.subarray(0, 5).toString('latin1') === '%PDF-',
};
MAGIC['image/apng'] = MAGIC['image/png']!;

/** Markup at the start of a file: the content would be active if a browser sniffed it. */
function looksLikeMarkup(head: Buffer): boolean {
  return /^(\ufeff)?\s*</.test(head.toString('utf8'));
}

/**
 * The type a file is stored and served with: what the client said, else what its name says,
 * else octet-stream. A type that would be shown inline must match the content; a file that only
 * claims to be an image or a PDF (an HTML or SVG file named .png) becomes octet-stream.
 */
export function storedContentType(declared: string | undefined, name: string, head: Buffer): string {
  const given = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  const byName = typeFromName(name);
  // A name that says "not for inline" wins (a page.html sent as text/plain stays an attachment).
  if (byName && !INLINE_MIME_TYPES.has(byName)) return byName;
  const type = given && given !== OCTET_STREAM && /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(given) ? given : (byName ?? OCTET_STREAM);
  if (!INLINE_MIME_TYPES.has(type)) return type;
  const check = MAGIC[type];
  if (check ? !check(head) : type !== 'text/plain' && looksLikeMarkup(head)) return OCTET_STREAM;
  return type;
}

export function isInlineType(contentType: string): boolean {
  return INLINE_MIME_TYPES.has(contentType);
}

/** RFC 6266 Content-Disposition: ASCII names quoted and escaped, others as RFC 8187 filename*. */
export function contentDisposition(inline: boolean, fileName: string): string {
  const kind = inline ? 'inline' : 'attachment';
  const name = fileName.replace(CONTROL, '');
  if (/^[\x20-\x7e]*$/.test(name)) return `${kind}; filename="${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return `${kind}; filename*=utf-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** One satisfiable range of a Range header, 'unsatisfiable', or null to send the whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file is a correct answer.
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (Number(match[2] || start) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

/**
 * The path_ids of uploads a rendered message links ("user_uploads/2/ab/xyz/name.png" becomes
 * "2/ab/xyz/name.png"), each once, in order.
 */
export function linkedUploadPaths(renderedHtml: string): string[] {
  const found = new Set<string>();
  for (const match of renderedHtml.matchAll(/href="\/?user_uploads\/([^"?#]+)"/g)) {
    let path = match[1]!.replace(/&amp;/g, '&');
    try {
      path = decodeURIComponent(path);
    } catch {
      continue;
    }
    if (/^\d+\//.test(path) && !path.startsWith('temporary/')) found.add(path);
  }
  return [...found];
}
