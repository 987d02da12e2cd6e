// Alert words: which words a user keeps, and whether a message contains one of them.

export { MAX_ALERT_WORD_LENGTH } from './limits.js';

/** Trimmed, without empty words, and each word once whatever its case (the first spelling wins). */
export function cleanAlertWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of words) {
    const word = raw.trim();
    const key = word.toLowerCase();
    if (word === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(word);
  }
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

/** Whether the text at `index` (a UTF-16 offset, possibly mid-pair) starts or ends a word here. */
function isWordChar(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  const code = text.codePointAt(index)!;
  // A low surrogate belongs to the character that starts one unit earlier.
  if (code >= 0xdc00 && code <= 0xdfff && index > 0) return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(index - 1)!));
  return WORD_CHAR.test(String.fromCodePoint(code));
}

/**
 * Whether `lowered` (content already lower-cased) contains `word` (lower-cased) as a whole word:
 * not preceded nor followed by a letter, digit or underscore.
 */
export function containsWord(lowered: string, word: string): boolean {
  if (word === '') return false;
  for (let at = lowered.indexOf(word); at !== -1; at = lowered.indexOf(word, at + 1)) {
    if (!isWordChar(lowered, at - 1) && !isWordChar(lowered, at + word.length)) return true;
  }
  return false;
}

/** Whether the content contains any of the (lower-cased) words, case-insensitively and as whole words. */
export function hasAlertWord(content: string, loweredWords: readonly string[]): boolean {
  if (loweredWords.length === 0) return false;
  const lowered = content.toLowerCase();
  return loweredWords.some((word) => containsWord(lowered, word));
}
