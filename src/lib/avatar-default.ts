// Confab's own default avatar, for users without an upload when Gravatar is off: the first letter
// of the person's name, drawn from a small built-in bitmap font in white on a colour chosen by the
// user id. Names that start with something the font lacks get a symmetric pattern from the id
// instead. The result is a PNG (every client shows PNG; not all show SVG), made without any image
// library or font on the system, so it looks the same everywhere.
import { crc32, deflateSync } from 'node:zlib';
import { BoundedMap, remember } from './bounded-map.js';

/** Side of the default avatar and of its medium form, in pixels (the reference's sizes). */
export const DEFAULT_AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;

/** Background colours, each dark enough for white on it to read well. */
const PALETTE: ReadonlyArray<readonly [number, number, number]> = [
  [0x1f, 0x6f, 0xb2], [0x2e, 0x7d, 0x32], [0xa2, 0x3b, 0x72], [0x6a, 0x4c, 0x93],
  [0xc0, 0x39, 0x2b], [0x00, 0x79, 0x6b], [0x8d, 0x5b, 0x2c], [0x3f, 0x51, 0xb5],
  [0xad, 0x14, 0x57], [0x45, 0x5a, 0x64], [0x5d, 0x7a, 0x1f], [0xb3, 0x4d, 0x00],
];

// 5 x 7 glyphs, rows top to bottom, '#' for ink.
const FONT: Record<string, string> = {
  A: '.###. #...# #...# ##### #...# #...# #...#', B: '####. #...# #...# ####. #...# #...# ####.',
  C: '.###. #...# #.... #.... #.... #...# .###.', D: '####. #...# #...# #...# #...# #...# ####.',
  E: '##### #.... #.... ####. #.... #.... #####', F: '##### #.... #.... ####. #.... #.... #....',
  G: '.###. #...# #.... #.### #...# #...# .####', H: '#...# #...# #...# ##### #...# #...# #...#',
  I: '.###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.', J: '..### ...#. ...#. ...#. ...#. #..#. .##..',
  K: '#...# #..#. #.#.. ##... #.#.. #..#. #...#', L: '#.... #.... #.... #.... #.... #.... #####',
  M: '#...# ##.## #.#.# #.#.# #...# #...# #...#', N: '#...# #...# ##..# #.#.# #..## #...# #...#',
  O: '.###. #...# #...# #...# #...# #...# .###.', P: '####. #...# #...# ####. #.... #.... #....',
  Q: '.###. #...# #...# #...# #.#.# #..#. .##.#', R: '####. #...# #...# ####. #.#.. #..#. #...#',
  S: '.#### #.... #.... .###. ....# ....# ####.', T: '##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..',
  U: '#...# #...# #...# #...# #...# #...# .###.', V: '#...# #...# #...# #...# #...# .#.#. ..#..',
  W: '#...# #...# #...# #.#.# #.#.# #.#.# .#.#.', X: '#...# #...# .#.#. ..#.. .#.#. #...# #...#',
  Y: '#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..', Z: '##### ....# ...#. ..#.. .#... #.... #####',
  0: '.###. #...# #..## #.#.# ##..# #...# .###.', 1: '..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.',
  2: '.###. #...# ....# ...#. ..#.. .#... #####', 3: '####. ....# ....# .###. ....# ....# ####.',
  4: '...#. ..##. .#.#. #..#. ##### ...#. ...#.', 5: '##### #.... ####. ....# ....# #...# .###.',
  6: '..##. .#... #.... ####. #...# #...# .###.', 7: '##### ....# ...#. ..#.. .#... .#... .#...',
  8: '.###. #...# #...# .###. #...# #...# .###.', 9: '.###. #...# #...# .#### ....# ...#. .##..',
};

/** Ink cells of a glyph or pattern: rows of booleans. */
type Cells = boolean[][];

function glyphCells(rows: string): Cells {
  return rows.split(' ').map((row) => [...row].map((c) => c === '#'));
}

/** The letter shown for a name: its first character without accents, upper-cased; null if the font lacks it. */
export function avatarInitial(fullName: string): string | null {
  const first = [...fullName.trim().normalize('NFKD').replace(/\p{M}/gu, '')][0]?.toUpperCase();
  return first !== undefined && first in FONT ? first : null;
}

/** A left-right symmetric 5 x 5 pattern from the user id, for names the font cannot show. */
function patternCells(userId: number): Cells {
  let bits = Math.imul(userId ^ 0x5bd1e995, 0x27d4eb2d) >>> 0;
  const cells: Cells = [];
  for (let row = 0; row < 5; row++) {
    const half = [0, 1, 2].map(() => {
      const on = (bits & 1) === 1;
      bits = bits >>> 1 || 0x9e3779b9;
      return on;
    });
    cells.push([half[0]!, half[1]!, half[2]!, half[1]!, half[0]!]);
  }
  // An empty pattern would show nothing at all.
  if (!cells.some((row) => row.includes(true))) cells[2]![2] = true;
  return cells;
}

export function avatarColour(userId: number): readonly [number, number, number] {
  return PALETTE[Math.abs(userId) % PALETTE.length]!;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGB PNG of the given rows (each row is size * 3 bytes). */
export function encodePng(size: number, rgb: Buffer): Buffer {
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) rgb.copy(raw, y * (size * 3 + 1) + 1, y * size * 3, (y + 1) * size * 3);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

function render(size: number, colour: readonly [number, number, number], cells: Cells): Buffer {
  const rgb = Buffer.alloc(size * size * 3);
  for (let i = 0; i < size * size; i++) rgb.set(colour, i * 3);
  const rows = cells.length;
  const cols = cells[0]!.length;
  // The drawing takes about half the height, centred.
  const cell = Math.max(1, Math.floor((size * 0.5) / rows));
  const top = Math.floor((size - cell * rows) / 2);
  const left = Math.floor((size - cell * cols) / 2);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!cells[r]![c]) continue;
      for (let y = top + r * cell; y < top + (r + 1) * cell; y++) rgb.fill(0xff, (y * size + left + c * cell) * 3, (y * size + left + (c + 1) * cell) * 3);
    }
  }
  return encodePng(size, rgb);
}

/** Rendered images, by size, colour and drawing: a few hundred at most for letters. */
const rendered = new BoundedMap<string, Buffer>(1000);

/** The default avatar PNG of a user at the given size. */
export function defaultAvatarPng(userId: number, fullName: string, size: number): Buffer {
  const initial = avatarInitial(fullName);
  const colourIndex = Math.abs(userId) % PALETTE.length;
  const key = initial === null ? `${size}:#${userId}` : `${size}:${colourIndex}:${initial}`;
  return remember(rendered, key, () => render(size, avatarColour(userId), initial === null ? patternCells(userId) : glyphCells(FONT[initial]!)));
}
