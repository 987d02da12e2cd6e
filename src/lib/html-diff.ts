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

/**
 * Word pairs a diff may still compare; each diff spends what its table costs. A caller making many
 * diffs shares one budget among them, since together they hold the event loop.
 */
export interface DiffBudget {
  cells: number;
}

/** What one diff may cost when the caller sets no budget (about 70 ms of comparisons). */
const MAX_CELLS = 4_000_000;

/**
 * A longest-common-subsequence diff of two word lists, as operations in order; null when its
 * table would cost more than the budget has left. Words shared at both ends are matched first,
 * so a small edit to a long text costs a small table.
 */
function diffWords(a: string[], b: string[], budget: DiffBudget): Op[] | null {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const cells = n * m;
  if (cells > budget.cells) return null;
  budget.cells -= cells;
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[head + i] === b[head + j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  for (let k = 0; k < head; k++) ops.push({ op: 'equal', index: k });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[head + i] === b[head + j]) {
      ops.push({ op: 'equal', index: head + j++ });
      i++;
    } else if (i < n && (j === m || lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)) {
      // Removals first, so a replaced word reads "old, then new".
      ops.push({ op: 'delete', index: head + i++ });
    } else {
      ops.push({ op: 'insert', index: head + j++ });
    }
  }
  for (let k = 0; k < tail; k++) ops.push({ op: 'equal', index: head + m + k });
  return ops;
}

const span = (kind: 'inserted' | 'deleted', text: string) => `<span class="highlight_text_${kind}">${text}</span>`;

/** The newer rendering with nothing marked: what a diff reads as when it is not worth computing. */
export const unmarkedHtmlDiff = (after: string): string => `<div>${after}</div>`;

/** The marked-up diff, or null when it would cost more than the budget has left. */
export function highlightHtmlDifferences(before: string, after: string, budget: DiffBudget = { cells: MAX_CELLS }): string | null {
  const oldWords = tokenize(before).filter((t): t is Extract<Token, { tag: false }> => !t.tag);
  const newTokens = tokenize(after);
  const newWords = newTokens.filter((t): t is Extract<Token, { tag: false }> => !t.tag);
  const ops = diffWords(
    oldWords.map((w) => w.key),
    newWords.map((w) => w.key),
    budget,
  );
  if (!ops) return null;
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
