// Literal strings every match of a pattern must contain, read from the pattern conservatively.
// Matching with re2js costs about a microsecond per character when a pattern has no literal
// prefix; most text contains none of a linkifier's literals, and a substring search settles it.

/** Inline flags that turn on case-insensitive matching, anywhere in the pattern. */
const CASE_INSENSITIVE = /\(\?[a-zA-Z]*i[a-zA-Z-]*[:)]/;
const REPEAT = /^\{([0-9]+)(,[0-9]*)?\}/;
/** Escapes of punctuation stand for the character itself. */
const ESCAPED_LITERAL = /^[!"#%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]$/;

/** Index just past a character class that starts at `start` ("["). */
function skipClass(chars: string[], start: number): number {
  let i = start + 1;
  if (chars[i] === '^') i++;
  if (chars[i] === ']') i++;
  while (i < chars.length && chars[i] !== ']') {
    if (chars[i] === '\\') i += 2;
    else if (chars[i] === '[' && chars[i + 1] === ':') {
      const close = chars.indexOf(']', i + 2);
      i = close < 0 ? chars.length : close + 1;
    } else i++;
  }
  return i + 1;
}

/** Index just past a group that starts at `start` ("("), or -1 when it never closes. */
function skipGroup(chars: string[], start: number): number {
  let depth = 0;
  for (let i = start; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\') i++;
    else if (c === '[') i = skipClass(chars, i) - 1;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** Index just past an escape sequence at `start` ("\"), and the literal it stands for, if any. */
function readEscape(chars: string[], start: number): { next: number; literal?: string } {
  const c = chars[start + 1];
  if (c === undefined) return { next: start + 1 };
  if ((c === 'p' || c === 'P' || c === 'x') && chars[start + 2] === '{') {
    const close = chars.indexOf('}', start + 3);
    return { next: close < 0 ? chars.length : close + 1 };
  }
  if (c === 'p' || c === 'P') return { next: start + 3 };
  if (c === 'x') return { next: start + 4 };
  if (ESCAPED_LITERAL.test(c)) return { next: start + 2, literal: c };
  return { next: start + 2 };
}

/**
 * Literal runs found at the top level of the pattern, each required in every match. An empty list
 * means no literal is known to be required (alternation, case-insensitivity or \Q...\E).
 */
export function requiredLiterals(pattern: string): string[] {
  return analyzeLiterals(pattern).literals;
}

/** The literal every match starts with ('' when unknown). */
export function literalPrefix(pattern: string): string {
  return analyzeLiterals(pattern).prefix;
}

const NOTHING_KNOWN = { literals: [], prefix: '' };

function analyzeLiterals(pattern: string): { literals: string[]; prefix: string } {
  if (CASE_INSENSITIVE.test(pattern) || pattern.includes('\\Q')) return NOTHING_KNOWN;
  const chars = Array.from(pattern);
  const runs: string[] = [];
  let run: string[] = [];
  let prefix: string | undefined;
  const endRun = () => {
    // The first run ends at the first token that is not a literal: everything before it is the prefix.
    if (prefix === undefined) prefix = run.join('');
    if (run.length > 0) runs.push(run.join(''));
    run = [];
  };
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === '|') return NOTHING_KNOWN;
    if (c === '?' || c === '*' || c === '+' || (c === '{' && REPEAT.test(chars.slice(i, i + 24).join('')))) {
      // The repeated atom was the run's last character (literals) or already ended it (anything else).
      const repeat = c === '{' ? REPEAT.exec(chars.slice(i, i + 24).join(''))! : null;
      const optional = c === '?' || c === '*' || (repeat !== null && Number(repeat[1]) === 0);
      const last = run.pop();
      endRun();
      if (!optional && last !== undefined) runs.push(last);
      i += repeat ? Array.from(repeat[0]).length : 1;
      if (chars[i] === '?') i++;
      continue;
    }
    if (c === '\\') {
      const { next, literal } = readEscape(chars, i);
      if (literal !== undefined) run.push(literal);
      else endRun();
      i = next;
    } else if (c === '[') {
      endRun();
      i = skipClass(chars, i);
    } else if (c === '(') {
      endRun();
      const next = skipGroup(chars, i);
      if (next < 0) return NOTHING_KNOWN;
      i = next;
    } else if (c === '.' || c === '^' || c === '$') {
      endRun();
      i++;
    } else {
      run.push(c);
      i++;
    }
  }
  endRun();
  return { literals: [...new Set(runs.filter((r) => r !== ''))], prefix: prefix ?? '' };
}
