// Suggestions while typing: which token the caret is in (@mention, #stream, #**stream>topic,
// :emoji:, or a name in "To"), the matching candidates, and the text once one is picked. Pure, so
// tested without a browser; compose-suggest-view.tsx shows them as a listbox.
import type { Person } from './model.js';

export type TokenKind = 'mention' | 'stream' | 'topic' | 'emoji' | 'recipient';

export interface Token {
  kind: TokenKind;
  /** Where the token starts (its sigil) in the text; it ends at the caret. */
  start: number;
  query: string;
  /** For a topic: the stream named before ">". */
  stream?: string;
}

export interface Suggestion {
  label: string;
  detail?: string;
  /** What replaces the token. */
  text: string;
}

export interface Sources {
  people: Iterable<Person>;
  groups: { id: number; name: string; description?: string }[];
  streams: { stream_id: number; name: string }[];
  /** Topics of the stream a topic token names, when known. */
  topics: string[];
  emoji: string[];
  me: number;
}

export const MAX_SUGGESTIONS = 8;

/** The token being typed just before the caret in the message, if any. */
export function messageToken(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  const topic = /(^|[\s(])#\*\*([^\n*>]+)>([^\n*]{0,60})$/.exec(before);
  if (topic) return { kind: 'topic', start: topic.index + topic[1]!.length, stream: topic[2]!, query: topic[3]! };
  const stream = /(^|[\s(])#(?:\*\*)?([^\n#*>]{0,40})$/.exec(before);
  if (stream) return { kind: 'stream', start: stream.index + stream[1]!.length, query: stream[2]! };
  const mention = /(^|[\s(])@_?(?:\*\*?)?([^\n@*]{0,30})$/.exec(before);
  if (mention) return { kind: 'mention', start: mention.index + mention[1]!.length, query: mention[2]! };
  const emoji = /(^|[\s(]):([a-z0-9_+-]{2,30})$/i.exec(before);
  if (emoji) return { kind: 'emoji', start: emoji.index + emoji[1]!.length, query: emoji[2]! };
  return null;
}

/** The name being typed in "To": what follows the last comma before the caret. */
export function recipientToken(text: string, caret: number): Token {
  const before = text.slice(0, caret);
  const comma = before.lastIndexOf(',');
  const start = comma + 1 + (/^\s*/.exec(before.slice(comma + 1))?.[0].length ?? 0);
  return { kind: 'recipient', start, query: before.slice(start) };
}

/** 0 for a match at the start, 1 at the start of a later word, 2 anywhere, -1 for none. */
function rank(haystack: string, query: string): number {
  const h = haystack.toLowerCase();
  const q = query.toLowerCase().trim();
  if (q === '' || h.startsWith(q)) return 0;
  if (h.split(/[\s_.@-]+/).some((word) => word.startsWith(q))) return 1;
  return h.includes(q) ? 2 : -1;
}

function best<T>(items: Iterable<T>, keys: (item: T) => string[], query: string): T[] {
  const scored: { item: T; score: number; key: string }[] = [];
  for (const item of items) {
    const ranks = keys(item).map((k) => rank(k, query)).filter((r) => r >= 0);
    if (ranks.length > 0) scored.push({ item, score: Math.min(...ranks), key: keys(item)[0]! });
  }
  scored.sort((a, b) => a.score - b.score || a.key.localeCompare(b.key));
  return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.item);
}

export function suggestionsFor(token: Token, sources: Sources, alreadyTo: string[] = []): Suggestion[] {
  switch (token.kind) {
    case 'recipient': {
      const taken = new Set(alreadyTo.map((t) => t.toLowerCase()));
      const people = [...sources.people].filter((p) => p.user_id !== sources.me && !taken.has(p.email.toLowerCase()) && !taken.has(p.full_name.toLowerCase()));
      return best(people, (p) => [p.full_name, p.email], token.query).map((p) => ({ label: p.full_name, detail: p.email, text: `${p.email}, ` }));
    }
    case 'mention': {
      const people = best(sources.people, (p) => [p.full_name, p.email], token.query).map((p) => ({ label: p.full_name, detail: p.email, text: `@**${p.full_name}** ` }));
      const groups = best(sources.groups, (g) => [g.name], token.query).map((g) => ({ label: g.name, detail: 'group', text: `@*${g.name}* ` }));
      return [...people, ...groups].slice(0, MAX_SUGGESTIONS);
    }
    case 'stream':
      return best(sources.streams, (s) => [s.name], token.query).map((s) => ({ label: `#${s.name}`, text: `#**${s.name}** ` }));
    case 'topic':
      return best(sources.topics, (t) => [t], token.query).map((t) => ({ label: t, detail: `#${token.stream}`, text: `#**${token.stream}>${t}** ` }));
    case 'emoji':
      return best(sources.emoji, (e) => [e], token.query).map((e) => ({ label: `:${e}:`, text: `:${e}: ` }));
  }
}

/** The text with the token replaced by the suggestion, and where the caret goes. */
export function applySuggestion(text: string, caret: number, token: Token, suggestion: Suggestion): { text: string; caret: number } {
  // A space already after the caret stands for the pick's own.
  const insert = /^\s/.test(text.slice(caret)) ? suggestion.text.trimEnd() : suggestion.text;
  const head = text.slice(0, token.start) + insert;
  return { text: head + text.slice(caret), caret: head.length };
}
