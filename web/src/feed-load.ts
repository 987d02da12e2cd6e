// Fetching a narrow's messages for the feed: opening it at the first unread message (or the newest),
// then older and newer batches as the feed scrolls toward either end. Each narrow's fetched range is
// kept, so the feed shows only messages with nothing missing between them.
import { batch, signal } from '@preact/signals';
import type { Message } from './api.js';
import { inRange, type LoadedRange, mergeRange } from './feed-window.js';
import { addMessages, messagesIn } from './model.js';
import { type Narrow, narrowTerms, narrowToHash } from './narrow.js';
import { rememberHits } from './narrow-match.js';
import { api, model, narrow, selectedId, status } from './store.js';

/** Messages fetched when a narrow opens, on each side of its first unread message. */
export const OPEN_BATCH = 100;
/** Messages fetched each time the feed nears the top or the bottom of what is loaded. */
export const SCROLL_BATCH = 200;

/** A narrow's identity as a key (its hash with stream ids only, so a rename keeps it). */
export const narrowKey = (n: Narrow) => narrowToHash(n, String);

/** Fetched ranges by narrow key. */
export const ranges = signal<ReadonlyMap<string, LoadedRange>>(new Map());

/** Where the feed lands once a narrow has opened: the first unread message, or the newest. */
export const landing = signal<{ key: string; messageId: number | 'newest' } | null>(null);

const loading = new Set<string>();
/** How many times each narrow has been opened: a batch fetched for an earlier opening is dropped. */
const openings = new Map<string, number>();

interface FetchReply {
  messages: Message[];
  anchor: number;
  found_anchor: boolean;
  found_oldest: boolean;
  found_newest: boolean;
}

function fetchAround(target: Narrow, anchor: string | number, before: number, after: number, includeAnchor = typeof anchor !== 'number') {
  return api.call<FetchReply>('GET', '/messages', {
    anchor: String(anchor),
    num_before: before,
    num_after: after,
    include_anchor: includeAnchor,
    narrow: narrowTerms(target),
    apply_markdown: true,
    client_gravatar: false,
  });
}

function setRange(key: string, range: LoadedRange): void {
  const next = new Map(ranges.value);
  next.set(key, range);
  ranges.value = next;
}

/** Adds fetched messages to the model the feed is showing; false when the model was replaced meanwhile. */
function store(messages: Message[], forModel: Map<number, Message>): boolean {
  const m = model.value;
  if (!m || m.messages !== forModel) return false;
  addMessages(m, messages);
  model.value = { ...m };
  return true;
}

/**
 * Opens a narrow afresh at its first unread message (with none, at the newest), at its newest or
 * oldest message (End and Home when that end is not loaded), or at a message (a link's `near`).
 */
export async function openNarrow(target: Narrow, at: 'first_unread' | 'newest' | 'oldest' | number = 'first_unread'): Promise<void> {
  const m = model.value;
  if (!m) return;
  const key = narrowKey(target);
  const opening = (openings.get(key) ?? 0) + 1;
  openings.set(key, opening);
  // What an earlier opening fetched is not shown meanwhile: the feed would draw it, then jump.
  if (ranges.value.has(key)) {
    const next = new Map(ranges.value);
    next.delete(key);
    ranges.value = next;
  }
  const reply = await fetchAround(target, at, OPEN_BATCH, OPEN_BATCH, true);
  if (openings.get(key) !== opening) return;
  batch(() => {
    if (!store(reply.messages, m.messages)) return;
    // A search's hits are the server's to say (it stems words); the client remembers them.
    if (target.kind === 'search') rememberHits(target, reply.messages.map((msg) => msg.id));
    setRange(key, mergeRange(null, reply, 'around'));
    const oldest = reply.messages[0]?.id;
    const messageId =
      at === 'oldest' && oldest !== undefined ? oldest : (at === 'first_unread' || typeof at === 'number') && reply.found_anchor ? reply.anchor : 'newest';
    landing.value = { key, messageId };
    if (narrowKey(narrow.value) === key) {
      const newest = reply.messages[reply.messages.length - 1];
      selectedId.value = messageId === 'newest' ? (newest?.id ?? null) : messageId;
    }
  });
}

/** Fetches the next batch past one end of the open narrow's range, unless that end is reached or on its way. */
export async function loadMore(direction: 'older' | 'newer'): Promise<void> {
  const m = model.value;
  const target = narrow.value;
  const key = narrowKey(target);
  const range = ranges.value.get(key);
  if (!m || !range || loading.has(`${key} ${direction}`)) return;
  if (direction === 'older' ? range.foundOldest : range.foundNewest) return;
  const from = direction === 'older' ? range.oldestId : range.newestId;
  if (!Number.isFinite(from)) return;
  const opening = openings.get(key);
  loading.add(`${key} ${direction}`);
  try {
    const reply = await fetchAround(target, from, direction === 'older' ? SCROLL_BATCH : 0, direction === 'newer' ? SCROLL_BATCH : 0);
    if (openings.get(key) !== opening) return;
    batch(() => {
      if (!store(reply.messages, m.messages)) return;
      if (target.kind === 'search') rememberHits(target, reply.messages.map((msg) => msg.id));
      setRange(key, mergeRange(ranges.value.get(key) ?? range, reply, direction));
    });
  } catch (error) {
    status.value = (error as Error).message;
  } finally {
    loading.delete(`${key} ${direction}`);
  }
}

/** The open narrow's messages the feed shows (oldest first), or null while it is still being fetched. */
export function feedMessages(): Message[] | null {
  const m = model.value;
  const range = ranges.value.get(narrowKey(narrow.value));
  if (!m || !range) return null;
  return messagesIn(m, narrow.value).filter((msg) => inRange(range, msg.id));
}
