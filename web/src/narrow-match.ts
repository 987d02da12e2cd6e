// Whether a loaded message belongs to a narrow's terms, so messages that arrive live show in the
// open search. Full-text search is the server's (it stems words); locally a word matches the start
// of a word, and the messages the server returned for a search count as matches too.
import type { Message } from './api.js';
import { type Narrow, narrowToHash, type Term } from './narrow.js';

const hitsByNarrow = new Map<string, Set<number>>();
const KEPT_SEARCHES = 20;

const keyOf = (narrow: Narrow) => narrowToHash(narrow, String);

/** Remembers the messages the server found for a narrow (the few most recent narrows). */
export function rememberHits(narrow: Narrow, ids: number[]): void {
  const key = keyOf(narrow);
  const hits = hitsByNarrow.get(key) ?? new Set<number>();
  for (const id of ids) hits.add(id);
  hitsByNarrow.delete(key);
  hitsByNarrow.set(key, hits);
  if (hitsByNarrow.size > KEPT_SEARCHES) hitsByNarrow.delete(hitsByNarrow.keys().next().value!);
}

export function recipientIds(m: Message): number[] {
  return Array.isArray(m.display_recipient) ? m.display_recipient.map((p) => p.id) : [];
}

/** A direct message to exactly these people (the viewer, always a recipient, may be left out). */
export function isConversationWith(m: Message, userIds: number[], meId: number): boolean {
  if (m.type !== 'private') return false;
  const wanted = new Set(userIds.length === 0 ? [meId] : userIds);
  if (userIds.length > 0 && !(userIds.length === 1 && userIds[0] === meId)) wanted.add(meId);
  const got = new Set(recipientIds(m));
  return got.size === wanted.size && [...wanted].every((id) => got.has(id));
}

const words = (text: string) => text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').match(/[\p{L}\p{N}]+/gu) ?? [];
const textOf = (html: string) => html.replace(/<[^>]*>/g, ' ').replace(/&[#\w]+;/g, ' ');

function matchesText(query: string, m: Message): boolean {
  const have = words(`${m.subject} ${textOf(m.content)}`);
  const wanted = words(query);
  return wanted.length > 0 && wanted.every((w) => have.some((h) => h.startsWith(w)));
}

const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

function matchesTerm(term: Term, m: Message, meId: number): boolean {
  const { operator, operand } = term;
  switch (operator) {
    case 'stream':
      return m.type === 'stream' && String(m.stream_id) === operand;
    case 'topic':
      return m.type === 'stream' && m.subject.toLowerCase() === operand.toLowerCase();
    case 'sender':
      return String(m.sender_id) === operand || m.sender_email.toLowerCase() === operand.toLowerCase();
    case 'dm':
      return /^\d+(,\d+)*$/.test(operand) && isConversationWith(m, operand.split(',').map(Number), meId);
    case 'dm-including':
      return m.type === 'private' && recipientIds(m).includes(Number(operand));
    case 'id':
      return String(m.id) === operand;
    case 'near':
    case 'with':
      // Where to start reading, not which messages.
      return true;
    case 'is':
      if (operand === 'dm' || operand === 'private') return m.type === 'private';
      if (operand === 'starred') return m.flags.includes('starred');
      if (operand === 'mentioned') return m.flags.some((f) => MENTION_FLAGS.includes(f));
      if (operand === 'unread') return !m.flags.includes('read');
      if (operand === 'resolved') return m.type === 'stream' && m.subject.startsWith('✔ ');
      return false;
    case 'has':
      if (operand === 'link') return /<a\s/i.test(m.content);
      if (operand === 'image') return /<img\s/i.test(m.content);
      if (operand === 'attachment') return /href="\/user_uploads\//.test(m.content);
      if (operand === 'reaction') return ((m as { reactions?: unknown[] }).reactions ?? []).length > 0;
      return false;
    case 'search':
      return matchesText(operand, m);
    default:
      // Operators the client cannot check (near, streams) leave it to the server's answer.
      return false;
  }
}

export function matchesTerms(narrow: Narrow & { kind: 'search' }, m: Message, meId: number): boolean {
  if (hitsByNarrow.get(keyOf(narrow))?.has(m.id)) return true;
  return narrow.terms.every((t) => matchesTerm(t, m, meId) !== Boolean(t.negated));
}
