// The search box's language, Zulip's operator syntax ("stream:general topic:lunch sender:me words"):
// text to narrow terms and back, and suggestions for what is being typed. Pure, for tests.
import { canonicalOperator, type Term } from './narrow.js';

export interface Directory {
  meId: number;
  streams: { stream_id: number; name: string }[];
  people: { user_id: number; full_name: string; email: string }[];
  /** Known topics of a stream, most recent first. */
  topics(streamId: number): string[];
}

export interface Suggestion {
  /** The whole search text once the suggestion is taken. */
  query: string;
  /** What it means, for people. */
  label: string;
}

const OPERATORS = ['stream', 'topic', 'sender', 'dm', 'dm-including', 'is', 'has', 'near', 'id', 'search', 'streams'];
const IS_VALUES: Record<string, string> = {
  starred: 'Starred messages',
  mentioned: 'Messages that mention you',
  dm: 'Direct messages',
  unread: 'Unread messages',
  resolved: 'Resolved topics',
};
const HAS_VALUES: Record<string, string> = { link: 'Messages with links', image: 'Messages with images', attachment: 'Messages with attachments', reaction: 'Messages with reactions' };
const MAX_SUGGESTIONS = 8;

/** Words and operator:operand pairs; a quoted operand ("lunch plans") keeps its spaces. */
function tokens(text: string): string[] {
  return text.match(/(?:[^\s"]+|"[^"]*"?)+/g) ?? [];
}

const unquote = (text: string) => text.replace(/^"|"$/g, '');
const quote = (text: string) => (/[\s"]/.test(text) || text === '' ? `"${text.replace(/"/g, '')}"` : text);

interface Split {
  negated: boolean;
  operator: string;
  operand: string;
}

function splitToken(token: string): Split | undefined {
  const match = /^(-?)([A-Za-z-]+):(.*)$/s.exec(token);
  if (!match) return undefined;
  const operator = canonicalOperator(match[2]!);
  if (!OPERATORS.includes(operator)) return undefined;
  return { negated: match[1] === '-', operator, operand: unquote(match[3]!) };
}

const lower = (s: string) => s.toLowerCase();

function findPerson(dir: Directory, text: string) {
  const wanted = lower(text.trim());
  if (wanted === 'me') return dir.people.find((p) => p.user_id === dir.meId);
  return dir.people.find((p) => lower(p.email) === wanted || String(p.user_id) === wanted) ?? dir.people.find((p) => lower(p.full_name) === wanted);
}

/** An operand as the narrow keeps it: streams and people as ids when known. */
function resolve(dir: Directory, operator: string, operand: string): string {
  if (operator === 'stream') return String(dir.streams.find((s) => lower(s.name) === lower(operand))?.stream_id ?? operand);
  if (operator === 'sender' || operator === 'dm-including') return String(findPerson(dir, operand)?.user_id ?? operand);
  if (operator === 'dm') {
    const ids = operand.split(',').map((part) => findPerson(dir, part)?.user_id);
    return ids.every((id) => id !== undefined) ? [...new Set(ids)].sort((a, b) => a! - b!).join(',') : operand;
  }
  return operand;
}

/** The narrow terms of a search text; free words become one `search` term, as Zulip's do. */
export function parseSearch(text: string, dir: Directory): Term[] {
  const terms: Term[] = [];
  const words: string[] = [];
  for (const token of tokens(text)) {
    const split = splitToken(token);
    if (!split || split.operand === '') {
      words.push(token);
      continue;
    }
    const term: Term = { operator: split.operator, operand: resolve(dir, split.operator, split.operand) };
    terms.push(split.negated ? { ...term, negated: true } : term);
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

/** Search text for terms, the way a person would type them (names and emails, not ids). */
export function termsToSearch(terms: Term[], dir: Directory): string {
  const personEmail = (id: string) => dir.people.find((p) => String(p.user_id) === id)?.email ?? id;
  return terms
    .map((t) => {
      if (t.operator === 'search') return t.operand;
      let operand = t.operand;
      if (t.operator === 'stream') operand = dir.streams.find((s) => String(s.stream_id) === t.operand)?.name ?? t.operand;
      if (t.operator === 'sender' || t.operator === 'dm-including') operand = personEmail(t.operand);
      if (t.operator === 'dm') operand = t.operand.split(',').map(personEmail).join(',');
      return `${t.negated ? '-' : ''}${t.operator}:${quote(operand)}`;
    })
    .join(' ');
}

const matches = (name: string, partial: string) => lower(name).includes(lower(partial));
const ranked = <T>(items: T[], name: (t: T) => string, partial: string) =>
  items.filter((t) => matches(name(t), partial)).sort((a, b) => Number(lower(name(b)).startsWith(lower(partial))) - Number(lower(name(a)).startsWith(lower(partial))));

/** People whose name has a word starting with the text, or whose email starts with it; first names first. */
function peopleMatching(dir: Directory, partial: string) {
  const p = lower(partial.trim());
  const hit = (person: Directory['people'][number]) => lower(person.email).startsWith(p) || lower(person.full_name).split(/\s+/).some((w) => w.startsWith(p)) || lower(person.full_name).startsWith(p);
  return dir.people.filter(hit).sort((a, b) => Number(lower(b.full_name).startsWith(p)) - Number(lower(a.full_name).startsWith(p)));
}

function operandSuggestions(dir: Directory, before: string, split: Split): Suggestion[] {
  const sign = split.negated ? '-' : '';
  const make = (operand: string, label: string) => ({ query: `${before}${sign}${split.operator}:${quote(operand)} `, label: split.negated ? `Exclude: ${label}` : label });
  const { operand } = split;
  switch (split.operator) {
    case 'stream':
      return ranked(dir.streams, (s) => s.name, operand).map((s) => make(s.name, `Stream ${s.name}`));
    case 'topic': {
      const stream = parseSearch(before, dir).find((t) => t.operator === 'stream' && /^\d+$/.test(t.operand));
      const names = stream ? dir.topics(Number(stream.operand)) : [];
      return names.filter((n) => matches(n, operand)).map((n) => make(n, `Topic ${n}`));
    }
    case 'sender':
      return peopleMatching(dir, operand).map((p) => make(p.email, `Sent by ${p.full_name}`));
    case 'dm':
    case 'dm-including': {
      const done = operand.includes(',') ? operand.slice(0, operand.lastIndexOf(',') + 1) : '';
      const partial = operand.slice(done.length);
      return peopleMatching(dir, partial).map((p) => make(`${done}${p.email}`, `Direct messages with ${p.full_name}`));
    }
    case 'is':
      return Object.entries(IS_VALUES).filter(([v]) => v.startsWith(lower(operand))).map(([v, label]) => make(v, label));
    case 'has':
      return Object.entries(HAS_VALUES).filter(([v]) => v.startsWith(lower(operand))).map(([v, label]) => make(v, label));
    default:
      return [];
  }
}

const STARTERS: Suggestion[] = [
  { query: 'stream:', label: 'Messages in a stream' },
  { query: 'topic:', label: 'Messages in a topic' },
  { query: 'sender:', label: 'Messages sent by someone' },
  { query: 'dm:', label: 'Direct messages with someone' },
  { query: 'is:starred', label: IS_VALUES.starred! },
  { query: 'is:mentioned', label: IS_VALUES.mentioned! },
  { query: 'is:dm', label: IS_VALUES.dm! },
  { query: 'has:link', label: HAS_VALUES.link! },
];

/** What the search box offers for the text typed so far (the caret at its end). */
export function suggest(text: string, dir: Directory): Suggestion[] {
  const last = /\S*$/.exec(text)![0];
  const before = text.slice(0, text.length - last.length);
  const split = splitToken(last);
  if (split) return operandSuggestions(dir, before, split).slice(0, MAX_SUGGESTIONS);
  const finish = (s: Suggestion) => ({ query: `${before}${s.query}${s.query.endsWith(':') ? '' : ' '}`, label: s.label });
  if (last === '') return before.trim() === '' ? STARTERS.map(finish) : [];
  const word = last.replace(/^-/, '');
  const operators = STARTERS.filter((s) => s.query.startsWith(lower(word)));
  const streams = ranked(dir.streams, (s) => s.name, word).map((s) => ({ query: `stream:${quote(s.name)}`, label: `Stream ${s.name}` }));
  const people = peopleMatching(dir, word).flatMap((p) => [
    { query: `dm:${p.email}`, label: `Direct messages with ${p.full_name}` },
    { query: `sender:${p.email}`, label: `Sent by ${p.full_name}` },
  ]);
  const search = { query: `${before}${last} `, label: `Search for ${[...tokens(before).filter((t) => !splitToken(t)), last].join(' ')}` };
  return [search, ...[...operators, ...streams, ...people].map(finish)].slice(0, MAX_SUGGESTIONS);
}
