// content_html_diff for message history: the newer rendering with the words that changed marked,
// inserted ones as <span class="highlight_text_inserted"> and removed ones (kept, struck by the
// client's style) as <span class="highlight_text_deleted">, all inside one <div>.

type Token = { tag: true; text: string } | { tag: false; text: string; key: string };

/** Tags stay whole; text splits into words that carry their following whitespace. */
function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  for (const part of html.split(/(<[^>]*>)/)) {
    if (part === '') continue;
    if (part.startsWith('<')) {
      tokens.push({ tag: true, text: part });
      continue;
    }
    for (const word of part.match(/\s*\S+\s*|\s+/g) ?? []) tokens.push({ tag: false, text: word, key: word.trim() });
  }
  return tokens;
}

type Op = { op: 'equal' | 'insert' | 'delete'; index: number };

/** Beyond this many word pairs the diff is not worth its memory: the whole text counts as replaced. */
const MAX_CELLS = 4_000_000;

/** A longest-common-subsequence diff of two word lists, as operations in order. */
function diffWords(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [...a.map((_, index) => ({ op: 'delete' as const, index })), ...b.map((_, index) => ({ op: 'insert' as const, index }))];
  }
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ op: 'equal', index: j++ });
      i++;
    } else if (i < n && (j === m || lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)) {
      // Removals first, so a replaced word reads "old, then new".
      ops.push({ op: 'delete', index: i++ });
    } else {
      ops.push({ op: 'insert', index: j++ });
    }
  }
  return ops;
}

const span = (kind: 'inserted' | 'deleted', text: string) => `<span class="highlight_text_${kind}">${text}</span>`;

export function highlightHtmlDifferences(before: string, after: string): string {
  const oldWords = tokenize(before).filter((t): t is Extract<Token, { tag: false }> => !t.tag);
  const newTokens = tokenize(after);
  const newWords = newTokens.filter((t): t is Extract<Token, { tag: false }> => !t.tag);
  const ops = diffWords(
    oldWords.map((w) => w.key),
    newWords.map((w) => w.key),
  );
  // What to write before each new word: removed words that preceded it; then whether it is new.
  const deletedBefore = new Map<number, string[]>();
  const inserted = new Set<number>();
  let pending: string[] = [];
  for (const { op, index } of ops) {
    if (op === 'delete') {
      pending.push(oldWords[index]!.text);
      continue;
    }
    if (pending.length > 0) deletedBefore.set(index, pending);
    pending = [];
    if (op === 'insert') inserted.add(index);
  }
  let out = '';
  let run = '';
  const flush = () => {
    if (run) out += span('inserted', run);
    run = '';
  };
  let word = 0;
  for (const token of newTokens) {
    if (token.tag) {
      flush();
      out += token.text;
      continue;
    }
    const removed = deletedBefore.get(word);
    if (removed) {
      flush();
      out += span('deleted', removed.join(''));
    }
    if (inserted.has(word)) run += token.text;
    else {
      flush();
      out += token.text;
    }
    word++;
  }
  flush();
  if (pending.length > 0) out += span('deleted', pending.join(''));
  return `<div>${out}</div>`;
}
