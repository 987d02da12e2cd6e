// Whether a pattern can never match a boundary character (whitespace, Unicode spaces, NEL and
// ' " ( , : <). Such a pattern's matches lie inside one run of other characters and start at the
// run's start, so it is tried once per run, anchored, instead of scanning every position.

export interface Run {
  start: number;
  text: string;
}

const ASCII_BOUNDARY = new Uint8Array(128);
for (const c of '\t\n\f\r \'"(,:<') ASCII_BOUNDARY[c.charCodeAt(0)] = 1;
const UNICODE_SPACE = /\p{Z}/u;

/** Whether text[i] is a boundary character: one a linkifier match may follow; runs lie between them. */
export function isBoundaryAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 128) return ASCII_BOUNDARY[code] === 1;
  return code === 0x85 || (code >= 0xa0 && UNICODE_SPACE.test(text[i]!));
}

/** The runs of characters between boundary characters, in order. */
export function splitRuns(text: string): Run[] {
  const runs: Run[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || isBoundaryAt(text, i)) {
      if (start >= 0) runs.push({ start, text: text.slice(start, i) });
      start = -1;
    } else if (start < 0) {
      start = i;
    }
  }
  return runs;
}

/** Code points of the boundary characters, for checking ranges of a class. */
const BOUNDARY_CODES = [
  0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x22, 0x27, 0x28, 0x2c, 0x3a, 0x3c, 0x85, 0xa0, 0x1680,
  ...Array.from({ length: 11 }, (_, i) => 0x2000 + i), 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];
const SAFE_POSIX = new Set(['alnum', 'alpha', 'digit', 'lower', 'upper', 'word', 'xdigit']);
/** Punctuation whose escape stands for the character itself (in Python, RE2 and JavaScript alike). */
export const ESCAPED_PUNCTUATION = /^[!"#%&'()*+,\-./:;<=>?@[\\\]^_`{|}~$]$/;

const isBoundary = (code: number) => BOUNDARY_CODES.includes(code);
const rangeIsSafe = (lo: number, hi: number) => lo <= hi && !BOUNDARY_CODES.some((c) => c >= lo && c <= hi);

/** The single code point an escape inside or outside a class stands for, 'class' for \d \w, or null. */
function escapeValue(chars: string[], i: number): { value: number | 'class' | null; next: number } {
  const c = chars[i + 1];
  if (c === undefined) return { value: null, next: i + 1 };
  if (c === 'd' || c === 'w') return { value: 'class', next: i + 2 };
  if (ESCAPED_PUNCTUATION.test(c)) return { value: c.codePointAt(0)!, next: i + 2 };
  if (c === 'x') {
    if (chars[i + 2] === '{') {
      const close = chars.indexOf('}', i + 3);
      if (close < 0) return { value: null, next: chars.length };
      return { value: parseInt(chars.slice(i + 3, close).join(''), 16), next: close + 1 };
    }
    return { value: parseInt(chars.slice(i + 2, i + 4).join(''), 16), next: i + 4 };
  }
  return { value: null, next: i + 2 };
}

/** Index past a class starting at `start` if it holds no boundary character, else -1. */
function safeClassEnd(chars: string[], start: number): number {
  let i = start + 1;
  if (chars[i] === '^') return -1;
  let first = true;
  while (i < chars.length && (chars[i] !== ']' || first)) {
    first = false;
    if (chars[i] === '[' && chars[i + 1] === ':') {
      const close = chars.indexOf(']', i + 2);
      const name = chars.slice(i + 2, close - 1).join('');
      if (close < 0 || !SAFE_POSIX.has(name)) return -1;
      i = close + 1;
      continue;
    }
    let lo: number | 'class' | null;
    if (chars[i] === '\\') ({ value: lo, next: i } = escapeValue(chars, i));
    else lo = chars[i++]!.codePointAt(0)!;
    if (lo === null) return -1;
    if (lo === 'class') continue;
    let hi = lo;
    if (chars[i] === '-' && chars[i + 1] !== ']' && chars[i + 1] !== undefined) {
      let value: number | 'class' | null;
      if (chars[i + 1] === '\\') ({ value, next: i } = escapeValue(chars, i + 1));
      else value = chars[(i += 2) - 1]!.codePointAt(0)!;
      if (typeof value !== 'number') return -1;
      hi = value;
    }
    if (!rangeIsSafe(lo, hi)) return -1;
  }
  return i < chars.length ? i + 1 : -1;
}

/** Index past a group's opening: "(", "(?:", "(?P<name>", "(?<name>", "(?flags)" or "(?flags:". */
function groupHeaderEnd(chars: string[], i: number): number {
  if (chars[i + 1] !== '?') return i + 1;
  if (chars[i + 2] === 'P' || chars[i + 2] === '<') {
    const close = chars.indexOf('>', i + 3);
    return close < 0 ? -1 : close + 1;
  }
  let j = i + 2;
  while (j < chars.length && /[a-zA-Z-]/.test(chars[j]!)) j++;
  return chars[j] === ':' || chars[j] === ')' ? j + 1 : -1;
}

/** True only when no character any match of the pattern consumes can be a boundary character. */
export function neverMatchesBoundary(pattern: string): boolean {
  const chars = Array.from(pattern);
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === '\\') {
      const after = chars[i + 1];
      if (after === 'b' || after === 'B' || after === 'A' || after === 'z') {
        i += 2;
        continue;
      }
      const { value, next } = escapeValue(chars, i);
      if (value === null || (typeof value === 'number' && isBoundary(value))) return false;
      i = next;
    } else if (c === '[') {
      const next = safeClassEnd(chars, i);
      if (next < 0) return false;
      i = next;
    } else if (c === '(') {
      const next = groupHeaderEnd(chars, i);
      if (next < 0) return false;
      i = next;
    } else if (c === '{') {
      // A repeat count, or a literal brace (not a boundary character either).
      const close = chars.indexOf('}', i);
      i = close >= 0 && /^\{[0-9]+(,[0-9]*)?\}$/.test(chars.slice(i, close + 1).join('')) ? close + 1 : i + 1;
    } else if (c === '.') {
      return false;
    } else {
      // ) | ? * + ^ $ match nothing themselves; any other character stands for itself.
      if (!')|?*+^$'.includes(c) && isBoundary(c.codePointAt(0)!)) return false;
      i++;
    }
  }
  return true;
}
