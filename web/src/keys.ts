// Zulip's everyday keyboard shortcuts as plain rules, tested without a browser: which key means
// what (and when a key belongs to the field being typed in instead), where the selection moves, and
// which unread topic comes next (the next unread direct-message conversation is dm-conversations.ts's).
import type { Model } from './model.js';
import { topicKey } from './model.js';
import type { Narrow } from './narrow.js';

export type Shortcut =
  | 'next'
  | 'previous'
  | 'first'
  | 'last'
  | 'reply'
  | 'new-topic'
  | 'new-dm'
  | 'next-unread-topic'
  | 'next-unread-dm'
  | 'escape'
  | 'search'
  | 'star'
  | 'edit'
  | 'help';

/** The shortcuts as the help panel lists them. */
export const SHORTCUT_HELP: readonly { keys: string[]; what: string }[] = [
  { keys: ['j', '↓'], what: 'Next message' },
  { keys: ['k', '↑'], what: 'Previous message' },
  { keys: ['Home'], what: 'Oldest message' },
  { keys: ['End'], what: 'Newest message' },
  { keys: ['Enter', 'r'], what: 'Reply to the selected message' },
  { keys: ['c'], what: 'New topic' },
  { keys: ['x'], what: 'New direct message' },
  { keys: ['n'], what: 'Next unread topic' },
  { keys: ['p'], what: 'Next unread direct message' },
  { keys: ['*'], what: 'Star or unstar the selected message' },
  { keys: ['e'], what: 'Edit the selected message' },
  { keys: ['/'], what: 'Search' },
  { keys: ['Esc'], what: 'Close, cancel, or leave the text field' },
  { keys: ['?'], what: 'Show these shortcuts' },
];

const KEYS: Record<string, Shortcut> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  Home: 'first',
  End: 'last',
  Enter: 'reply',
  r: 'reply',
  c: 'new-topic',
  x: 'new-dm',
  n: 'next-unread-topic',
  p: 'next-unread-dm',
  Escape: 'escape',
  '/': 'search',
  '*': 'star',
  e: 'edit',
  '?': 'help',
};

/** What the key's target is, as far as shortcuts care. */
export type Focus = 'page' | 'text' | 'control';

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  focus: Focus;
}

/** Text fields keep every key but Esc; links and buttons keep Enter (and the arrows, for menus). */
export function shortcutFor(press: KeyPress): Shortcut | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  const shortcut = KEYS[press.key] ?? null;
  if (shortcut === null) return null;
  if (press.focus === 'text') return shortcut === 'escape' ? shortcut : null;
  if (press.focus === 'control' && (press.key === 'Enter' || press.key.startsWith('Arrow'))) return null;
  return shortcut;
}

interface ElementLike {
  tagName: string;
  isContentEditable?: boolean;
  getAttribute(name: string): string | null;
}

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'password', 'url', 'tel', 'number', 'date', 'time', 'datetime-local', 'month', 'week', '']);

export function focusOf(target: ElementLike | null): Focus {
  if (!target || !target.tagName) return 'page';
  const tag = target.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select' || target.isContentEditable) return 'text';
  if (tag === 'input') return TEXT_INPUT_TYPES.has((target.getAttribute('type') ?? '').toLowerCase()) ? 'text' : 'control';
  const role = target.getAttribute('role');
  if (role === 'textbox' || role === 'combobox' || role === 'searchbox') return 'text';
  if (tag === 'a' || tag === 'button' || tag === 'summary' || role === 'button' || role === 'menuitem' || role === 'option') return 'control';
  return 'page';
}

/** The id the selection moves to, among the shown ids (oldest first); null when nothing is shown. */
export function moveSelection(ids: readonly number[], selected: number | null, move: 'next' | 'previous' | 'first' | 'last'): number | null {
  if (ids.length === 0) return null;
  if (move === 'first') return ids[0]!;
  if (move === 'last') return ids[ids.length - 1]!;
  if (selected === null) return move === 'next' ? ids[0]! : ids[ids.length - 1]!;
  // The selection may be a message no longer shown: step from where it would be.
  let i = ids.findIndex((id) => id >= selected);
  if (i === -1) i = ids.length;
  const exact = ids[i] === selected;
  const target = move === 'next' ? (exact ? i + 1 : i) : i - 1;
  return ids[Math.min(ids.length - 1, Math.max(0, target))]!;
}

/**
 * The next topic with unread messages after the open one, in the sidebar's stream order (by name)
 * and, within a stream, oldest unread first; it wraps around. Null when nothing else is unread.
 */
export function nextUnreadTopic(model: Model, current: Narrow): Narrow | null {
  const topics = new Map<string, { streamId: number; topic: string; firstId: number }>();
  for (const [id, info] of model.unread) {
    if (info.kind !== 'stream' || !model.streams.has(info.streamId)) continue;
    const key = topicKey(info.streamId, info.topic);
    const known = topics.get(key);
    // Spelled as its oldest unread message has it.
    if (!known || id < known.firstId) topics.set(key, { streamId: info.streamId, topic: info.topic, firstId: id });
  }
  const streamOrder = [...model.streams.values()].sort((a, b) => a.name.localeCompare(b.name)).map((s) => s.stream_id);
  const rank = new Map(streamOrder.map((id, i) => [id, i]));
  const order = [...topics.values()].sort((a, b) => rank.get(a.streamId)! - rank.get(b.streamId)! || a.firstId - b.firstId);
  if (order.length === 0) return null;
  let next = order[0]!;
  if (current.kind === 'stream') {
    const here = rank.get(current.streamId) ?? -1;
    if (current.topic === undefined) {
      next = order.find((t) => rank.get(t.streamId)! >= here) ?? order[0]!;
    } else {
      const currentKey = topicKey(current.streamId, current.topic);
      const at = order.findIndex((t) => topicKey(t.streamId, t.topic) === currentKey);
      const after = at >= 0 ? order[(at + 1) % order.length]! : order.find((t) => rank.get(t.streamId)! > here || (t.streamId === current.streamId && t.topic.toLowerCase() > current.topic!.toLowerCase()));
      next = after ?? order[0]!;
      if (topicKey(next.streamId, next.topic) === currentKey) return null;
    }
  }
  return { kind: 'stream', streamId: next.streamId, topic: next.topic };
}
