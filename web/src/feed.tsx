// The message feed: the open narrow's fetched messages in runs under recipient bars. Only the rows on
// screen (plus a margin) are in the page, between two spacers sized from measured heights, so a
// narrow of any length scrolls smoothly. It opens at the first unread message, fetches older and
// newer messages near either end without moving what is on screen, keeps the selected message in
// view, and marks what is on screen as read.
import { Component } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { feedMessages, landing, loadMore, narrowKey, ranges } from './feed-load.js';
import { anchorAt, barKey, ESTIMATED_HEIGHT, feedRows, messageKey, offsetsOf, type Row, rowHeights, rowsInside, type ScrollAnchor, scrollToShow, scrollTopFor, type Slice, visibleSlice } from './feed-window.js';
import { helpOpen, onShortcutKey } from './key-actions.js';
import { MessageView, RecipientBar, recipientKey } from './message.js';
import type { Model } from './model.js';
import { ShortcutsHelp } from './shortcuts-help.js';
import { markSeenSoon, narrow, onScreen, selectedId } from './store.js';
import './feed.css';

/** Pixels of rows kept in the page above and below the viewport. */
const MARGIN = 900;
/** Fetch more once the viewport is this close to either end of what is loaded. */
const LOAD_AHEAD = 2000;
/** Room left above a message the feed lands on or scrolls to. */
const ROOM = 48;

export function Feed({ m }: { m: Model }) {
  const el = useRef<HTMLDivElement>(null);
  const key = narrowKey(narrow.value);
  const range = ranges.value.get(key);
  const messages = useMemo(() => feedMessages(), [m, key, range]);
  const rows = useMemo(() => (messages ? feedRows(messages, recipientKey) : []), [messages]);
  const indexOf = useMemo(() => new Map(rows.map((row, i) => [row.key, i])), [rows]);
  // Measured row heights survive narrow changes: a message looks the same in every narrow.
  const heights = useRef(new Map<string, number>()).current;
  const [measured, setMeasured] = useState(0);
  // Heights by row index, updated in place as rows are measured; offsets are their running sums.
  const rowHeight = useMemo(() => rowHeights(rows, heights), [rows]);
  const offsets = useMemo(() => offsetsOf(rowHeight), [rowHeight, measured]);
  const [, redraw] = useState(0);
  const view = useRef({ top: 0, height: 600, key, slice: { start: 0, end: 0 } as Slice, landed: null as unknown, selected: null as number | null, reveal: false, landingBar: null as { anchor: { key: string; delta: number }; bar: string } | null });
  const anchor = useRef<ScrollAnchor | null>(null);
  const rowResized = useRef<ResizeObserver | null>(null);
  const watched = useRef(new Set<Element>()).current;

  if (view.current.key !== key) {
    view.current = { ...view.current, top: 0, key, landed: null };
    anchor.current = null;
  }
  const pending = landing.value;
  if (pending && pending.key === key && view.current.landed !== pending && rows.length > 0) {
    // Land on the first unread message (its recipient bar too when it opens a run), or the newest.
    view.current.landed = pending;
    view.current.selected = selectedId.value;
    if (pending.messageId === 'newest') anchor.current = 'bottom';
    else {
      // Held by the message itself: its bar would move away if older messages of its run arrive.
      const bar = barKey(pending.messageId);
      const above = indexOf.has(bar) ? (heights.get(bar) ?? ESTIMATED_HEIGHT.bar) : ROOM;
      const held = { key: messageKey(pending.messageId), delta: -above };
      anchor.current = held;
      view.current.landingBar = indexOf.has(bar) && !heights.has(bar) ? { anchor: held, bar } : null;
    }
  }
  const top = (anchor.current && scrollTopFor(anchor.current, indexOf, offsets, view.current.height)) ?? view.current.top;
  const slice = visibleSlice(offsets, top, view.current.height, MARGIN);
  view.current.slice = slice;

  /** After scrolling or drawing: what is on screen is seen; near an end, fetch more. */
  function seen(feed: HTMLDivElement) {
    const inside = rowsInside(offsets, feed.scrollTop, feed.clientHeight);
    onScreen.clear();
    for (let i = inside.start; i < inside.end; i++) if (rows[i]!.kind === 'message') onScreen.add(rows[i]!.msg.id);
    markSeenSoon();
    if (rows.length === 0) return;
    if (feed.scrollTop < LOAD_AHEAD) void loadMore('older');
    if (feed.scrollHeight - feed.scrollTop - feed.clientHeight < LOAD_AHEAD) void loadMore('newer');
  }

  useLayoutEffect(() => {
    const feed = el.current;
    // A hidden feed has no layout to measure.
    if (!feed || feed.clientHeight === 0) return;
    view.current.height = feed.clientHeight;
    let changed = false;
    for (const child of feed.children) {
      const rowKey = (child as HTMLElement).dataset.key;
      if (!rowKey) continue;
      const height = child.getBoundingClientRect().height;
      const i = indexOf.get(rowKey);
      if (i !== undefined && Math.abs(rowHeight[i]! - height) > 0.01) {
        heights.set(rowKey, height);
        rowHeight[i] = height;
        changed = true;
      }
    }
    // New heights move the spacers: draw again (before the browser paints) and place the view then.
    // Rows also change size after drawing (KaTeX's fonts arrive, an image loads): watch them.
    // Rows that left the page are let go (the observer would otherwise keep them alive).
    for (const row of watched) {
      if (!row.isConnected) {
        rowResized.current?.unobserve(row);
        watched.delete(row);
      }
    }
    for (const child of feed.children) {
      if ((child as HTMLElement).dataset.key && !watched.has(child)) {
        rowResized.current?.observe(child);
        watched.add(child);
      }
    }
    if (changed) return void setMeasured((n) => n + 1);
    const selected = selectedId.value;
    if (selected !== view.current.selected) {
      view.current.selected = selected;
      view.current.reveal = true;
    }
    if (view.current.reveal) {
      // Scroll the selected message into view, again once its real height is known.
      const i = selected === null ? undefined : indexOf.get(messageKey(selected));
      const to = i === undefined ? null : scrollToShow(offsets, i, feed.scrollTop, feed.clientHeight, ROOM);
      // The newest message is shown from the bottom, so the view follows what arrives after it.
      if (to !== null) anchor.current = i === rows.length - 1 && range?.foundNewest ? 'bottom' : anchorAt(rows, offsets, to);
      if (i === undefined || heights.has(rows[i]!.key)) view.current.reveal = false;
    }
    // Once the landing message's bar is measured, the whole bar shows above it (not the estimate).
    const landingBar = view.current.landingBar;
    if (landingBar && heights.has(landingBar.bar)) {
      if (anchor.current === landingBar.anchor) anchor.current = { key: landingBar.anchor.key, delta: -heights.get(landingBar.bar)! };
      view.current.landingBar = null;
    }
    // The bottom is the feed's own (its padding below the rows included).
    const target = anchor.current === 'bottom' ? feed.scrollHeight - feed.clientHeight : anchor.current && scrollTopFor(anchor.current, indexOf, offsets, feed.clientHeight);
    if (target !== null && target !== undefined && Math.abs(feed.scrollTop - target) > 0.5) feed.scrollTop = target;
    view.current.top = feed.scrollTop;
    const need = visibleSlice(offsets, feed.scrollTop, feed.clientHeight, MARGIN / 2);
    if (need.start < slice.start || need.end > slice.end) redraw((n) => n + 1);
    seen(feed);
  });

  function onScroll() {
    const feed = el.current;
    if (!feed) return;
    view.current.top = feed.scrollTop;
    view.current.height = feed.clientHeight;
    const atBottom = feed.scrollHeight - feed.scrollTop - feed.clientHeight < 2;
    anchor.current = atBottom && range?.foundNewest ? 'bottom' : anchorAt(rows, offsets, feed.scrollTop);
    const need = visibleSlice(offsets, feed.scrollTop, feed.clientHeight, MARGIN / 2);
    const drawn = view.current.slice;
    if (need.start < drawn.start || need.end > drawn.end) redraw((n) => n + 1);
    seen(feed);
  }

  // A message I send, arriving at the end of a narrow that was already complete, is selected (and so
  // scrolled to), as in Zulip.
  const newest = useRef<{ key: string; id: number } | null>(null);
  useEffect(() => {
    const last = messages?.[messages.length - 1];
    const before = newest.current;
    newest.current = last && range?.foundNewest ? { key, id: last.id } : null;
    if (last && before?.key === key && last.id > before.id && last.sender_id === m.me.user_id) selectedId.value = last.id;
  }, [messages]);

  useEffect(() => {
    addEventListener('keydown', onShortcutKey);
    const resized = new ResizeObserver(() => redraw((n) => n + 1));
    if (el.current) resized.observe(el.current);
    rowResized.current = new ResizeObserver((entries) => {
      let stale = false;
      for (const entry of entries) {
        const row = entry.target as HTMLElement;
        if (row.isConnected && Math.abs((heights.get(row.dataset.key!) ?? -1) - row.getBoundingClientRect().height) > 0.01) stale = true;
      }
      if (stale) redraw((n) => n + 1);
    });
    return () => {
      removeEventListener('keydown', onShortcutKey);
      resized.disconnect();
      rowResized.current?.disconnect();
    };
  }, []);

  const selected = selectedId.value;
  const total = offsets[offsets.length - 1]!;
  return (
    <div class="feed" ref={el} onScroll={onScroll} aria-busy={messages ? 'false' : 'true'} data-narrow={key}>
      {!messages && <p class="empty">Loading messages…</p>}
      {messages?.length === 0 && <p class="empty">No messages here yet.</p>}
      <div class="spacer" style={{ height: `${offsets[slice.start]}px` }} aria-hidden="true" />
      {rows.slice(slice.start, slice.end).map((row) => (
        <FeedRow key={row.key} row={row} unread={row.kind === 'message' && m.unread.has(row.msg.id)} selected={row.msg.id === selected && row.kind === 'message'} />
      ))}
      <div class="spacer" style={{ height: `${total - offsets[slice.end]!}px` }} aria-hidden="true" />
      {helpOpen.value && <ShortcutsHelp />}
    </div>
  );
}

interface FeedRowProps {
  row: Row;
  unread: boolean;
  selected: boolean;
}

/**
 * One row, drawn again only when it changes: scrolling re-renders the feed every few hundred pixels,
 * and the rows already on screen stay as they are. (Any change to the model makes new row objects.)
 */
class FeedRow extends Component<FeedRowProps> {
  override shouldComponentUpdate(next: FeedRowProps): boolean {
    return next.row !== this.props.row || next.unread !== this.props.unread || next.selected !== this.props.selected;
  }

  override render({ row, unread, selected }: FeedRowProps) {
    if (row.kind === 'bar') {
      return (
        <div data-key={row.key} class="row bar-row">
          <RecipientBar msg={row.msg} />
        </div>
      );
    }
    return (
      <div data-key={row.key} class={`row message-row${row.first ? ' first' : ''}${row.last ? ' last' : ''}`}>
        <MessageView msg={row.msg} unread={unread} selected={selected} />
      </div>
    );
  }
}
