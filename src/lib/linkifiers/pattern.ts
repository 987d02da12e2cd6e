// Linkifier patterns: Python-style regular expressions run by re2js, so no administrator's
// pattern can take more than linear time. Errors read like the reference's RE2 messages.
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { ApiError } from '../../errors.js';

/** re2js (Go's wording) -> RE2's wording, which the reference reports. */
const RE2_WORDING: Record<string, string> = {
  'missing closing )': 'missing )',
  'missing closing ]': 'missing ]',
  'unexpected )': 'unexpected )',
  'invalid nested repetition operator': 'bad repetition operator',
  'invalid repeat count': 'bad repetition operator',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'trailing backslash at end of expression': 'trailing \\',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'invalid named capture': 'invalid named capture group',
  'duplicate capture group name': 'invalid named capture group',
  'invalid escape sequence': 'invalid escape sequence',
  'invalid character class': 'invalid character class',
  'invalid character class range': 'invalid character class range',
  'invalid UTF-8': 'invalid UTF-8',
};

/** Patterns longer than this are refused before compiling (a pathological size, not a real linkifier). */
const MAX_PATTERN_LENGTH = 10_000;

function badPattern(message: string): ApiError {
  return new ApiError(`Bad regular expression: ${message}`);
}

function describe(error: unknown): string {
  if (error instanceof RE2JSSyntaxException) {
    const description = String(error.getDescription() ?? '');
    const wording = RE2_WORDING[description] ?? description;
    const arg = error.getPattern();
    return arg ? `${wording}: ${arg}` : wording;
  }
  return error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'unknown error';
}

export interface CompiledPattern {
  regex: RE2JS;
  /** Named groups in the order they appear. */
  groupNames: string[];
}

/** Compiles an administrator's pattern; throws the reference's "Bad regular expression: ..." error. */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern.length > MAX_PATTERN_LENGTH) throw badPattern('pattern too large - compile failed');
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern);
  } catch (error) {
    throw badPattern(describe(error));
  }
  const groups = regex.namedGroups() as Record<string, number>;
  const groupNames = Object.keys(groups).sort((a, b) => groups[a]! - groups[b]!);
  return { regex, groupNames };
}
