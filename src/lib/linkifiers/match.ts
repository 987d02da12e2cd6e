// Finding linkifier matches in text: each pattern only matches as a whole "word" (after the
// start, whitespace or an opening delimiter, and not followed by a letter or digit), linkifiers
// apply in their configured order, and an earlier linkifier wins where matches overlap.
import { RE2JS } from 're2js';
import { BoundedMap, remember } from '../bounded-map.js';
import { isBoundaryAt, neverMatchesBoundary, type Run, splitRuns } from './boundary-free.js';
import type { LinkifierMatch } from '../markdown/types.js';
import { fastAnchoredRegex } from './fast-pattern.js';
import { literalPrefix, requiredLiterals } from './literals.js';
import { compilePattern } from './pattern.js';
import { compileTemplate, type Expander } from './url-template.js';

/** Runs of text remembered per linkifier, with what the linkifier made of each. */
const RUN_MEMO_SIZE = 5000;

export type { LinkifierMatch };

/**
 * Called between candidate positions of a scan; throws to stop a scan that has run past the
 * render's time budget (a pattern with no literal to look for may try every position of a long text).
 */
export type BudgetCheck = () => void;
const unbounded: BudgetCheck = () => {};

export interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
}

export interface CompiledLinkifier {
  readonly id: number;
  readonly pattern: string;
  readonly urlTemplate: string;
  /** The pattern as written: finds candidates (fast when it starts with a literal). */
  readonly regex: RE2JS;
  /** The pattern between boundary groups: 1 before, 2 the match itself, last after. */
  readonly bounded: RE2JS;
  /** The pattern then the after-boundary, to try at one position: 1 the match itself, last after. */
  readonly anchored: RE2JS;
  /** Whether the pattern can be tried on the text from one position on alone (no ^, \b, \B, \A). */
  readonly contextFree: boolean;
  /** Whether every match lies inside one run between boundary characters (see boundary-free.ts). */
  readonly withinRuns: boolean;
  readonly groupNames: readonly string[];
  /** Strings every match contains: text lacking one cannot match. */
  readonly literals: readonly string[];
  /** What every match starts with ('' when unknown). */
  readonly prefix: string;
  /** Outcome per run text (words repeat across messages): the match's length and URL, or null. */
  readonly runMemo: BoundedMap<string, { length: number; url: string } | null>;
  /** Expands the URL template with a match's groups. */
  readonly expand: Expander;
  /** The anchored pattern as a sticky native expression, when backtracking is safe (fast-pattern.ts). */
  readonly fast: RegExp | null;
}

/** What may come right before a match: start, whitespace (incl. NEL and Unicode spaces), opening delimiters. */
const BEFORE = `(^|[\\s\\x{85}\\pZ'"(,:<])`;
/** What may come right after: end, or anything but a letter or digit. */
const AFTER = `($|[^\\pL\\pN])`;
/** The after rule for one character, in JavaScript (isBoundaryAt is the before rule). */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Assertions that look before the position a match starts at. */
const CONTEXT_ASSERTION = /\^|\\[bBA]/;

/** Compiles stored linkifiers in order; a row that no longer compiles is skipped, not fatal. */
export function compileLinkifiers(rows: readonly LinkifierRow[]): CompiledLinkifier[] {
  const out: CompiledLinkifier[] = [];
  for (const row of rows) {
    try {
      const { regex, groupNames } = compilePattern(row.pattern);
      const contextFree = !CONTEXT_ASSERTION.test(row.pattern);
      out.push({
        id: row.id,
        pattern: row.pattern,
        urlTemplate: row.url_template,
        regex,
        bounded: RE2JS.compile(`${BEFORE}(${row.pattern})${AFTER}`),
        anchored: RE2JS.compile(`(${row.pattern})${AFTER}`),
        contextFree,
        withinRuns: contextFree && neverMatchesBoundary(row.pattern),
        groupNames,
        literals: requiredLiterals(row.pattern),
        prefix: literalPrefix(row.pattern),
        runMemo: new BoundedMap(RUN_MEMO_SIZE),
        expand: compileTemplate(row.url_template),
        fast: fastAnchoredRegex(row.pattern),
      });
    } catch {
      continue;
    }
  }
  return out;
}

export interface TextLink extends LinkifierMatch {
  text: string;
}

/** Whether a match may start here: at the start, or after a boundary character outside the previous match. */
function mayStartAt(text: string, start: number, searchFrom: number): boolean {
  return start === 0 || (start - 1 >= searchFrom && isBoundaryAt(text, start - 1));
}

function mayEndAt(text: string, end: number): boolean {
  return end >= text.length || !WORD_CHAR.test(String.fromCodePoint(text.codePointAt(end)!));
}

type Matcher = ReturnType<RE2JS['matcher']>;
interface Found {
  matcher: Matcher;
  /** Group of the match itself in `matcher`. */
  group: number;
  offset: number;
}

/**
 * The first match at or after `pos` that stands alone: what the bounded pattern finds, found faster.
 * The plain pattern finds the first position it can match at (a substring search when it starts
 * with a literal); when that match passes both boundary checks it is the bounded pattern's match.
 * Otherwise one search with the bounded pattern finds it: trying each later position in turn
 * would read on from each of them, which on a long text that nearly matches is quadratic.
 */
function nextMatch(linkifier: CompiledLinkifier, text: string, plain: Matcher, pos: number, check: BudgetCheck): Found | undefined {
  if (!plain.find(pos)) return undefined;
  check();
  const start = Number(plain.start());
  if (linkifier.contextFree && mayStartAt(text, start, pos) && mayEndAt(text, Number(plain.end()))) return { matcher: plain, group: 0, offset: 0 };
  const bounded = linkifier.bounded.matcher(text);
  return bounded.find(Math.max(pos, start - 1)) ? { matcher: bounded, group: 2, offset: 0 } : undefined;
}

function push(linkifier: CompiledLinkifier, text: string, found: Found, out: TextLink[]): number {
  const { matcher, group, offset } = found;
  const start = offset + Number(matcher.start(group));
  const end = offset + Number(matcher.end(group));
  if (end === start) return end;
  const values: Record<string, string | null> = {};
  for (const name of linkifier.groupNames) values[name] = matcher.group(name);
  out.push({ start, end, url: linkifier.expand(values), text: text.slice(start, end) });
  return end;
}

/** The match starting exactly at `start` through the native expression, pushed to `out`. */
function pushFast(linkifier: CompiledLinkifier, fast: RegExp, text: string, start: number, out: TextLink[]): boolean {
  fast.lastIndex = start;
  const found = fast.exec(text);
  if (!found || found[0] === '') return false;
  const values: Record<string, string | null> = {};
  for (const name of linkifier.groupNames) values[name] = found.groups?.[name] ?? null;
  const end = start + found[0].length;
  out.push({ start, end, url: linkifier.expand(values), text: found[0] });
  return true;
}

/** A pattern with a literal prefix and a native expression: each occurrence of the prefix is a candidate. */
function scanPrefixed(linkifier: CompiledLinkifier, fast: RegExp, text: string, out: TextLink[], check: BudgetCheck): void {
  let pos = 0;
  for (let at = text.indexOf(linkifier.prefix); at >= 0; at = text.indexOf(linkifier.prefix, at + 1)) {
    check();
    if (!mayStartAt(text, at, pos)) continue;
    if (pushFast(linkifier, fast, text, at, out)) {
      pos = out[out.length - 1]!.end;
      at = pos - 1;
    }
  }
}

/** A pattern that stays inside runs matches at most once per run, at its start. */
function scanRuns(linkifier: CompiledLinkifier, text: string, runs: readonly Run[], out: TextLink[], check: BudgetCheck): void {
  const memo = linkifier.runMemo;
  for (const run of runs) {
    check();
    if (!run.text.startsWith(linkifier.prefix)) continue;
    if (linkifier.literals.some((literal) => !run.text.includes(literal))) continue;
    // The run and the boundary character after it are all a match can see.
    const seen = text.slice(run.start, run.start + run.text.length + 1);
    const outcome = remember(memo, seen, () => {
      const found: TextLink[] = [];
      if (linkifier.fast) pushFast(linkifier, linkifier.fast, seen, 0, found);
      else {
        const anchored = linkifier.anchored.matcher(seen);
        if (anchored.lookingAt()) push(linkifier, seen, { matcher: anchored, group: 1, offset: 0 }, found);
      }
      return found[0] ? { length: found[0].end, url: found[0].url } : null;
    });
    if (outcome) {
      const end = run.start + outcome.length;
      out.push({ start: run.start, end, url: outcome.url, text: text.slice(run.start, end) });
    }
  }
}

/** The runs of a text, split once however many linkifiers look at them. */
class TextRuns {
  private runs: Run[] | undefined;
  constructor(readonly text: string) {}
  get(): readonly Run[] {
    return (this.runs ??= splitRuns(this.text));
  }
}

/** Every match of one linkifier, left to right, not overlapping each other. */
function scanLinkifier(linkifier: CompiledLinkifier, text: string, out: TextLink[], runs: TextRuns, check: BudgetCheck): void {
  for (const literal of linkifier.literals) if (!text.includes(literal)) return;
  if (linkifier.fast && linkifier.prefix !== '') return scanPrefixed(linkifier, linkifier.fast, text, out, check);
  if (linkifier.withinRuns) return scanRuns(linkifier, text, runs.get(), out, check);
  const plain = linkifier.regex.matcher(text);
  let pos = 0;
  while (pos <= text.length) {
    check();
    const found = nextMatch(linkifier, text, plain, pos, check);
    if (!found) return;
    const end = push(linkifier, text, found, out);
    // The character after the match may be the one before the next match: resume at the match's end.
    pos = end > pos ? end : pos + 1;
  }
}

function overlapsAny(accepted: readonly TextLink[], candidate: TextLink): boolean {
  for (const other of accepted) {
    if (candidate.start < other.end && other.start < candidate.end) return true;
  }
  return false;
}

/** Adds candidates that overlap nothing already accepted (callers pass higher precedence first). */
export function acceptNonOverlapping(accepted: TextLink[], candidates: readonly TextLink[]): void {
  for (const candidate of candidates) {
    if (!overlapsAny(accepted, candidate)) accepted.push(candidate);
  }
}

/** Matches with their text, in order of appearance; `keep` drops candidates before overlaps are settled. */
export function findLinkifierLinks(
  text: string,
  linkifiers: readonly CompiledLinkifier[],
  keep?: (link: TextLink) => boolean,
  check: BudgetCheck = unbounded,
): TextLink[] {
  const accepted: TextLink[] = [];
  if (text === '') return accepted;
  const runs = new TextRuns(text);
  for (const linkifier of linkifiers) {
    const found: TextLink[] = [];
    scanLinkifier(linkifier, text, found, runs, check);
    acceptNonOverlapping(accepted, keep ? found.filter(keep) : found);
  }
  return accepted.sort((a, b) => a.start - b.start);
}

/** Linkifier matches in one run of text: [start, end) offsets (UTF-16) and the expanded URL. */
export function findLinkifierMatches(
  text: string,
  linkifiers: readonly CompiledLinkifier[],
  check: BudgetCheck = unbounded,
): LinkifierMatch[] {
  if (linkifiers.length === 0) return [];
  return findLinkifierLinks(text, linkifiers, undefined, check).map(({ start, end, url }) => ({ start, end, url }));
}
