// content_html_diff for a history request. Diffs are the costly part of the answer, so a request
// gets one bound on the words it may compare across all its versions (newest edits first), and each
// diff is remembered: a repeat of the request, or another reader's, compares nothing again.
import { createHash } from 'node:crypto';
import { type DiffBudget, highlightHtmlDifferences, unmarkedHtmlDiff } from './html-diff.js';

/**
 * Word pairs one history request may compare: a thousand-word rewrite still gets its highlighting,
 * and no request holds the event loop for more than a few tens of milliseconds.
 */
export const MAX_HISTORY_DIFF_CELLS = 1_000_000;

/** Characters of remembered diffs kept per process (about 16 MB); the oldest go first. */
const MAX_CACHED_CHARS = 8_000_000;

/**
 * Remembered diffs, keyed by a digest of the two renderings they compare: a diff depends on nothing
 * else, so an entry never goes stale, whichever process or store the versions come from (a message
 * edited, re-rendered or deleted elsewhere simply asks for another key).
 */
export class DiffCache {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars = MAX_CACHED_CHARS) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): string | undefined {
    return this.entries.get(key);
  }

  set(key: string, diff: string): void {
    if (diff.length > this.maxChars || this.entries.has(key)) return;
    this.entries.set(key, diff);
    this.chars += diff.length;
    for (const [oldest, value] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= value.length;
    }
  }
}

const sharedCache = new DiffCache();

function keyOf(before: string, after: string): string {
  // The length keeps the boundary between the two renderings unambiguous.
  return createHash('sha256').update(`${before.length}:`).update(before).update(after).digest('base64');
}

/** Diffs for one request: highlighted while the budget lasts or remembered, otherwise unmarked. */
export function historyDiffer(cache: DiffCache = sharedCache, budget: DiffBudget = { cells: MAX_HISTORY_DIFF_CELLS }) {
  return (before: string, after: string): string => {
    const key = keyOf(before, after);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const diff = highlightHtmlDifferences(before, after, budget);
    if (diff === null) return unmarkedHtmlDiff(after);
    cache.set(key, diff);
    return diff;
  };
}

export type HistoryDiffer = ReturnType<typeof historyDiffer>;
