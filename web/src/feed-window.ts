// The feed's windowing, as plain functions so it is tested without a browser: the rows the loaded
// messages make (a recipient bar before each run, then the messages), where each row sits given the
// heights measured so far, which rows are on screen plus a margin, and which part of a narrow's
// history has been fetched (so a gap between fetches is never shown as if it were continuous).
import type { Message } from './api.js';

export type Row =
  | { kind: 'bar'; key: string; msg: Message }
  | {
      kind: 'message';
      key: string;
      msg: Message;
      /** First of its run (right under the bar), and last (the run's box closes under it). */
      first: boolean;
      last: boolean;
    };

/** Heights to assume until a row has been measured: a one-line message and a recipient bar. */
export const ESTIMATED_HEIGHT = { bar: 40, message: 58 } as const;

export const barKey = (id: number) => `b${id}`;
export const messageKey = (id: number) => `m${id}`;

/** Messages (oldest first) as rows: a recipient bar wherever the conversation changes. */
export function feedRows(messages: readonly Message[], conversationOf: (msg: Message) => string): Row[] {
  const rows: Row[] = [];
  let previous: string | null = null;
  for (const [i, msg] of messages.entries()) {
    const conversation = conversationOf(msg);
    if (conversation !== previous) rows.push({ kind: 'bar', key: barKey(msg.id), msg });
    const next = messages[i + 1];
    rows.push({ kind: 'message', key: messageKey(msg.id), msg, first: conversation !== previous, last: !next || conversationOf(next) !== conversation });
    previous = conversation;
  }
  return rows;
}

/** Each row's height: measured, or estimated until it has been. */
export function rowHeights(rows: readonly Row[], measured: ReadonlyMap<string, number>): Float64Array {
  const heights = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) heights[i] = measured.get(rows[i]!.key) ?? ESTIMATED_HEIGHT[rows[i]!.kind];
  return heights;
}

/** Row i spans offsets[i] to offsets[i + 1]; the last offset is the whole height. */
export function offsetsOf(heights: Float64Array): Float64Array {
  const offsets = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i]! + heights[i]!;
  return offsets;
}

export function rowOffsets(rows: readonly Row[], measured: ReadonlyMap<string, number>): Float64Array {
  return offsetsOf(rowHeights(rows, measured));
}

/** The index of the row under vertical position y (clamped to the rows there are). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  if (count <= 0) return 0;
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid]! <= y) low = mid;
    else high = mid - 1;
  }
  return low;
}

export interface Slice {
  /** First row rendered. */
  start: number;
  /** One past the last row rendered. */
  end: number;
}

/** The rows that overlap the viewport widened by `margin` pixels above and below. */
export function visibleSlice(offsets: Float64Array, scrollTop: number, viewport: number, margin: number): Slice {
  const count = offsets.length - 1;
  if (count <= 0) return { start: 0, end: 0 };
  const start = rowAt(offsets, Math.max(0, scrollTop - margin));
  const end = rowAt(offsets, scrollTop + viewport + margin) + 1;
  return { start, end: Math.min(count, end) };
}

/** The rows at least partly inside [top, top + height). */
export function rowsInside(offsets: Float64Array, top: number, height: number): Slice {
  const count = offsets.length - 1;
  if (count <= 0 || height <= 0) return { start: 0, end: 0 };
  const start = rowAt(offsets, top);
  let end = start;
  while (end < count && offsets[end]! < top + height) end++;
  return { start, end };
}

/**
 * What keeps the view still while rows above it change (older messages arrive, a row is measured):
 * a row and how far the viewport's top is below that row's top. "bottom" follows the newest message.
 */
export type ScrollAnchor = { key: string; delta: number } | 'bottom';

export function anchorAt(rows: readonly Row[], offsets: Float64Array, scrollTop: number): ScrollAnchor | null {
  if (rows.length === 0) return null;
  let i = rowAt(offsets, scrollTop);
  // A recipient bar moves to an older message when older messages of its run arrive: hold on to
  // the message under it instead.
  if (rows[i]!.kind === 'bar' && i + 1 < rows.length) i += 1;
  return { key: rows[i]!.key, delta: scrollTop - offsets[i]! };
}

/** Where to scroll so the anchor's row is where it was; null when the row is gone. */
export function scrollTopFor(anchor: ScrollAnchor, indexOf: ReadonlyMap<string, number>, offsets: Float64Array, viewport: number): number | null {
  const total = offsets[offsets.length - 1]!;
  if (anchor === 'bottom') return Math.max(0, total - viewport);
  const i = indexOf.get(anchor.key);
  if (i === undefined) return null;
  return Math.max(0, offsets[i]! + anchor.delta);
}

/** The scroll position that brings row i fully into view, moving as little as possible; null if it is. */
export function scrollToShow(offsets: Float64Array, i: number, scrollTop: number, viewport: number, margin: number): number | null {
  const top = offsets[i]!;
  const bottom = offsets[i + 1]!;
  if (top - margin < scrollTop) return Math.max(0, top - margin);
  if (bottom + margin > scrollTop + viewport) return Math.min(top - margin, bottom + margin - viewport);
  return null;
}

/** The part of a narrow's history fetched so far: every message of the narrow between the two ids is loaded. */
export interface LoadedRange {
  oldestId: number;
  newestId: number;
  /** Nothing older exists. */
  foundOldest: boolean;
  /** Nothing newer exists yet: messages arriving by events belong to the range. */
  foundNewest: boolean;
}

export interface FetchAnswer {
  messages: readonly { id: number }[];
  found_oldest: boolean;
  found_newest: boolean;
}

/** The range after a fetch: the first one around an anchor, or one reaching older or newer from the range's end. */
export function mergeRange(range: LoadedRange | null, answer: FetchAnswer, direction: 'around' | 'older' | 'newer'): LoadedRange {
  const ids = answer.messages.map((m) => m.id);
  const low = ids.length > 0 ? Math.min(...ids) : Number.POSITIVE_INFINITY;
  const high = ids.length > 0 ? Math.max(...ids) : Number.NEGATIVE_INFINITY;
  if (direction === 'around' || !range) {
    return { oldestId: low, newestId: high, foundOldest: answer.found_oldest, foundNewest: answer.found_newest };
  }
  if (direction === 'older') {
    return { ...range, oldestId: Math.min(range.oldestId, low), foundOldest: answer.found_oldest };
  }
  return { ...range, newestId: Math.max(range.newestId, high), foundNewest: answer.found_newest };
}

/** Whether a loaded message of the narrow lies inside the fetched range (no unseen gap beside it). */
export function inRange(range: LoadedRange, id: number): boolean {
  return (range.foundOldest || id >= range.oldestId) && (range.foundNewest || id <= range.newestId);
}
