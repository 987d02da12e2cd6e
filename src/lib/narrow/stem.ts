// The Porter (1980) suffix-stripping stemmer, as the embedded store's full-text index
// ("porter" tokenizer) applies it: search highlighting and the in-memory predicate use it
// to decide which words a query matches. Tokens shorter than 3 or longer than 64
// characters, and tokens with characters outside a-z and 0-9, are left as they are.

const MIN_LENGTH = 3;
const MAX_LENGTH = 64;

function isConsonant(word: string, i: number): boolean {
  const c = word[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  if (c === 'y') return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** The number of vowel-consonant sequences in word[0, end). */
function measure(word: string, end: number): number {
  let count = 0;
  let i = 0;
  while (i < end && isConsonant(word, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(word, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(word, i)) i++;
    count++;
  }
  return count;
}

function hasVowel(word: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(word, i)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** Consonant-vowel-consonant at the end of word[0, end), the last not w, x or y. */
function endsCvc(word: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(word, end - 1) || isConsonant(word, end - 2) || !isConsonant(word, end - 3)) return false;
  const last = word[end - 1];
  return last !== 'w' && last !== 'x' && last !== 'y';
}

/**
 * The first listed suffix the word ends with decides: replaced when the stem before it
 * passes the test, otherwise the word is left alone.
 */
function replaceSuffix(
  word: string,
  rules: ReadonlyArray<readonly [string, string]>,
  test: (word: string, stemEnd: number) => boolean,
): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stemEnd = word.length - suffix.length;
    return test(word, stemEnd) ? word.slice(0, stemEnd) + replacement : word;
  }
  return word;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];

const STEP4 = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou',
  'ism', 'ate', 'iti', 'ous', 'ive', 'ize',
].map((suffix) => [suffix, ''] as const)
  // Longest first, so that "ement" is tried before "ment" and "ent".
  .sort((a, b) => b[0].length - a[0].length);

const positiveMeasure = (word: string, end: number) => measure(word, end) > 0;

function step1(word: string): string {
  if (word.endsWith('sses') || word.endsWith('ies')) word = word.slice(0, -2);
  else if (word.endsWith('s') && !word.endsWith('ss')) word = word.slice(0, -1);

  if (word.endsWith('eed')) {
    if (measure(word, word.length - 3) > 0) word = word.slice(0, -1);
  } else {
    const suffix = word.endsWith('ed') ? 'ed' : word.endsWith('ing') ? 'ing' : null;
    if (suffix && hasVowel(word, word.length - suffix.length)) {
      word = word.slice(0, -suffix.length);
      if (word.endsWith('at') || word.endsWith('bl') || word.endsWith('iz')) word += 'e';
      else if (endsWithDoubleConsonant(word) && !/[lsz]$/.test(word)) word = word.slice(0, -1);
      else if (measure(word, word.length) === 1 && endsCvc(word, word.length)) word += 'e';
    }
  }

  if (word.endsWith('y') && hasVowel(word, word.length - 1)) word = `${word.slice(0, -1)}i`;
  return word;
}

function step4(word: string): string {
  for (const [suffix] of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stemEnd = word.length - suffix.length;
    if (measure(word, stemEnd) <= 1) return word;
    if (suffix === 'ion' && !/[st]$/.test(word.slice(0, stemEnd))) return word;
    return word.slice(0, stemEnd);
  }
  return word;
}

function step5(word: string): string {
  if (word.endsWith('e')) {
    const m = measure(word, word.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(word, word.length - 1))) word = word.slice(0, -1);
  }
  if (measure(word, word.length) > 1 && word.endsWith('ll')) word = word.slice(0, -1);
  return word;
}

/** The stem of one lower-cased token. */
export function porterStem(token: string): string {
  if (token.length < MIN_LENGTH || token.length > MAX_LENGTH || !/^[a-z0-9]+$/.test(token)) return token;
  let word = step1(token);
  word = replaceSuffix(word, STEP2, positiveMeasure);
  word = replaceSuffix(word, STEP3, positiveMeasure);
  word = step4(word);
  return step5(word);
}
