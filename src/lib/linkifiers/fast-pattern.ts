// A native JavaScript regular expression for the simple patterns most linkifiers are (ticket keys,
// issue numbers, repositories): about thirty times cheaper per match than re2js. A pattern gets one
// only when backtracking cannot take more than linear time on it: a plain sequence of characters
// and classes, groups without repeats or alternation, and every variable repeat followed by
// something that cannot start with a character the repeat consumes. Everything else stays on re2js.
import { ESCAPED_PUNCTUATION } from './boundary-free.js';

/** Inclusive code point ranges, sorted and not overlapping. */
type CharSet = Array<[number, number]>;

interface Atom {
  set: CharSet;
  min: number;
  max: number;
}

/** The parsed pattern: atoms in order, with the JavaScript source written from them. */
interface Parsed {
  atoms: Atom[];
  source: string;
}

const MAX_CODE_POINT = 0x10ffff;
const DIGITS: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const METACHARACTERS = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
const GROUP_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REPEAT = /^\{([0-9]{1,4})(,([0-9]{0,4}))?\}/;

function normalize(ranges: CharSet): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: CharSet = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(set: CharSet): CharSet {
  const out: CharSet = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function intersects(a: CharSet, b: CharSet): boolean {
  return a.some(([lo, hi]) => b.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));
}

const codePoint = (n: number) => `\\u{${n.toString(16)}}`;
const classSource = (set: CharSet) => `[${set.map(([lo, hi]) => (lo === hi ? codePoint(lo) : `${codePoint(lo)}-${codePoint(hi)}`)).join('')}]`;

/** A parse of the supported subset; any construct outside it throws. */
class Parser {
  private i = 0;
  private readonly atoms: Atom[] = [];
  private readonly names = new Set<string>();
  private source = '';

  constructor(private readonly chars: string[]) {}

  parse(): Parsed {
    this.sequence(0);
    if (this.i < this.chars.length) throw new Error('unsupported');
    return { atoms: this.atoms, source: this.source };
  }

  private sequence(depth: number): void {
    while (this.i < this.chars.length) {
      const c = this.chars[this.i]!;
      if (c === ')') {
        if (depth === 0) throw new Error('unsupported');
        return;
      }
      if (c === '(') {
        this.group(depth);
        continue;
      }
      const set = this.atom();
      const { min, max, text } = this.repeat();
      this.atoms.push({ set, min, max });
      this.source += (set.length === 1 && set[0]![0] === set[0]![1] ? codePoint(set[0]![0]) : classSource(set)) + text;
    }
    if (depth > 0) throw new Error('unsupported');
  }

  private group(depth: number): void {
    const rest = this.chars.slice(this.i, this.i + 3).join('');
    if (rest === '(?:') {
      this.i += 3;
      this.source += '(?:';
    } else if (rest === '(?P' || rest.startsWith('(?<')) {
      const open = this.i + (rest === '(?P' ? 3 : 2);
      const close = this.chars.indexOf('>', open);
      const name = this.chars.slice(open + 1, close).join('');
      if (this.chars[open] !== '<' || close < 0 || !GROUP_NAME.test(name) || this.names.has(name)) throw new Error('unsupported');
      this.names.add(name);
      this.i = close + 1;
      this.source += `(?<${name}>`;
    } else if (rest.startsWith('(?')) {
      throw new Error('unsupported');
    } else {
      this.i += 1;
      this.source += '(';
    }
    this.sequence(depth + 1);
    this.i += 1;
    this.source += ')';
    // A repeated group could make backtracking retry its insides at every split.
    if (/^[?*+{]$/.test(this.chars[this.i] ?? '')) throw new Error('unsupported');
  }

  /** One character, escape or class; anything with a meaning outside the subset throws. */
  private atom(): CharSet {
    const c = this.chars[this.i]!;
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    if (METACHARACTERS.has(c)) throw new Error('unsupported');
    this.i += 1;
    const n = c.codePointAt(0)!;
    return [[n, n]];
  }

  private escape(): CharSet {
    const c = this.chars[this.i + 1];
    this.i += 2;
    if (c === 'd') return DIGITS;
    if (c === 'w') return WORD;
    if (c !== undefined && ESCAPED_PUNCTUATION.test(c)) {
      const n = c.codePointAt(0)!;
      return [[n, n]];
    }
    throw new Error('unsupported');
  }

  private charClass(): CharSet {
    this.i += 1;
    const negated = this.chars[this.i] === '^';
    if (negated) this.i += 1;
    const ranges: CharSet = [];
    let first = true;
    while (this.i < this.chars.length && (this.chars[this.i] !== ']' || first)) {
      first = false;
      const lo = this.classMember();
      if (lo.length > 1 || lo[0]![0] !== lo[0]![1]) {
        ranges.push(...lo);
        continue;
      }
      if (this.chars[this.i] === '-' && this.chars[this.i + 1] !== ']' && this.chars[this.i + 1] !== undefined) {
        this.i += 1;
        const hi = this.classMember();
        if (hi.length > 1 || hi[0]![0] !== hi[0]![1] || hi[0]![0] < lo[0]![0]) throw new Error('unsupported');
        ranges.push([lo[0]![0], hi[0]![0]]);
      } else {
        ranges.push(lo[0]!);
      }
    }
    if (this.chars[this.i] !== ']') throw new Error('unsupported');
    this.i += 1;
    const set = normalize(ranges);
    return negated ? complement(set) : set;
  }

  private classMember(): CharSet {
    const c = this.chars[this.i]!;
    if (c === '\\') return this.escape();
    if (c === '[') throw new Error('unsupported');
    this.i += 1;
    const n = c.codePointAt(0)!;
    return [[n, n]];
  }

  private repeat(): { min: number; max: number; text: string } {
    const c = this.chars[this.i];
    let min = 1;
    let max = 1;
    let text = '';
    if (c === '?' || c === '*' || c === '+') {
      [min, max] = c === '?' ? [0, 1] : c === '*' ? [0, Infinity] : [1, Infinity];
      text = c;
      this.i += 1;
    } else if (c === '{') {
      const found = REPEAT.exec(this.chars.slice(this.i, this.i + 12).join(''));
      if (!found) throw new Error('unsupported');
      min = Number(found[1]);
      max = found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3]);
      if (max < min) throw new Error('unsupported');
      text = found[0];
      this.i += found[0].length;
    }
    // Lazy and possessive repeats, and repeats of repeats, are left to re2js.
    if (text !== '' && /^[?*+{]$/.test(this.chars[this.i] ?? '')) throw new Error('unsupported');
    return { min, max, text };
  }
}

/** Whether every variable repeat is followed only by atoms that cannot take its characters. */
function backtracksLinearly(atoms: readonly Atom[]): boolean {
  return atoms.every((atom, i) => {
    if (atom.min === atom.max) return true;
    for (let j = i + 1; j < atoms.length; j++) {
      if (intersects(atom.set, atoms[j]!.set)) return false;
      if (atoms[j]!.min > 0) break;
    }
    return true;
  });
}

/**
 * A sticky JavaScript expression matching what the pattern matches at one position, followed by
 * the end or a character that is not a letter or digit; null when the pattern is outside the subset.
 */
export function fastAnchoredRegex(pattern: string): RegExp | null {
  let parsed: Parsed;
  try {
    parsed = new Parser(Array.from(pattern)).parse();
  } catch {
    return null;
  }
  if (parsed.atoms.length === 0 || !backtracksLinearly(parsed.atoms)) return null;
  try {
    return new RegExp(`(?:${parsed.source})(?![\\p{L}\\p{N}])`, 'uy');
  } catch {
    return null;
  }
}
