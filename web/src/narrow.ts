// Narrows (which messages the feed shows), their Zulip-style hash URLs, and the API's narrow terms.
// A narrow is a list of operator terms; the common ones have a kind of their own so the views can
// test them simply, and anything else (a search) keeps its terms.

/** One operator and its operand as the URL and the search box spell it (ids as digits). */
export interface Term {
  operator: string;
  operand: string;
  negated?: boolean;
}

export type Narrow =
  | { kind: 'all' }
  | { kind: 'mentioned' }
  | { kind: 'starred' }
  /** All direct messages, or (with userIds) the conversation with those people. */
  | { kind: 'dm'; userIds?: number[] }
  | { kind: 'stream'; streamId: number; topic?: string }
  | { kind: 'search'; terms: Term[] };

/** Zulip's hash encoding: URI encoding with '.' in place of '%', so a dot itself is escaped. */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text).replace(/[.()%]/g, (c) => (c === '%' ? '.' : `.${c.charCodeAt(0).toString(16).toUpperCase()}`));
}

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\.([0-9A-Fa-f]{2})/g, '%$1'));
  } catch {
    return text;
  }
}

/** Operator names older URLs and people use, as the current ones. */
const ALIASES: Record<string, string> = { channel: 'stream', subject: 'topic', 'pm-with': 'dm', from: 'sender', 'group-pm-with': 'dm-including' };

export function canonicalOperator(operator: string): string {
  const lower = operator.toLowerCase();
  return ALIASES[lower] ?? lower;
}

const IDS = /^\d+(,\d+)*$/;
const parseIds = (text: string) => text.split(',').map(Number);

/** The terms a narrow stands for. */
export function narrowToTerms(narrow: Narrow): Term[] {
  switch (narrow.kind) {
    case 'all':
      return [];
    case 'mentioned':
    case 'starred':
      return [{ operator: 'is', operand: narrow.kind }];
    case 'dm':
      return narrow.userIds ? [{ operator: 'dm', operand: narrow.userIds.join(',') }] : [{ operator: 'is', operand: 'dm' }];
    case 'stream':
      return [{ operator: 'stream', operand: String(narrow.streamId) }, ...(narrow.topic === undefined ? [] : [{ operator: 'topic', operand: narrow.topic }])];
    case 'search':
      return narrow.terms;
  }
}

/** The narrow of a list of terms: one of the simple kinds when it is one, else a search. */
export function termsToNarrow(input: Term[]): Narrow {
  const terms = input.map((t) => ({ ...t, operator: canonicalOperator(t.operator) }));
  const [a, b] = terms;
  if (terms.some((t) => t.negated)) return { kind: 'search', terms };
  if (!a) return { kind: 'all' };
  if (terms.length === 1 && a.operator === 'is') {
    if (a.operand === 'mentioned' || a.operand === 'starred') return { kind: a.operand };
    if (a.operand === 'dm' || a.operand === 'private') return { kind: 'dm' };
  }
  if (terms.length === 1 && a.operator === 'dm' && IDS.test(a.operand)) return { kind: 'dm', userIds: parseIds(a.operand) };
  if (a.operator === 'stream' && /^\d+$/.test(a.operand)) {
    const streamId = Number(a.operand);
    if (terms.length === 1) return { kind: 'stream', streamId };
    if (terms.length === 2 && b!.operator === 'topic') return { kind: 'stream', streamId, topic: b!.operand };
  }
  return { kind: 'search', terms };
}

/** Names for the readable part of URLs; only the ids in them matter when reading one back. */
export type NameOf = (id: number) => string;

/** "42-general": the id leads; the name, when known, is only for people reading the URL. */
const slug = (ids: string, name: string) => (name === '' ? ids : `${ids}-${encodeHashComponent(name.replace(/ /g, '-'))}`);

function operandToHash(term: Term, streamName: NameOf, personName: NameOf): string {
  const { operator, operand } = term;
  if (operator === 'stream' && /^\d+$/.test(operand)) return slug(operand, streamName(Number(operand)));
  if ((operator === 'dm' || operator === 'dm-including' || operator === 'sender') && IDS.test(operand)) {
    const ids = parseIds(operand);
    // Zulip's form: "12-Mark-Member" for one person, "12,14-group" for several.
    return ids.length === 1 ? slug(operand, personName(ids[0]!)) : `${operand}-group`;
  }
  return encodeHashComponent(operand);
}

/** A narrow's URL hash, as Zulip writes it: "#narrow/stream/42-general/topic/lunch". */
export function narrowToHash(narrow: Narrow, streamName: NameOf, personName: NameOf = () => ''): string {
  if (narrow.kind === 'all') return '#all_messages';
  const parts = narrowToTerms(narrow).map((t) => `${t.negated ? '-' : ''}${t.operator}/${operandToHash(t, streamName, personName)}`);
  return `#narrow/${parts.join('/')}`;
}

function operandFromHash(operator: string, raw: string): string | undefined {
  const text = decodeHashComponent(raw);
  if (operator === 'stream') return /^\d+/.exec(text)?.[0];
  if (operator === 'dm' || operator === 'dm-including' || operator === 'sender') {
    const ids = /^\d+(,\d+)*/.exec(text)?.[0];
    return ids ?? (text.includes('@') ? text : undefined);
  }
  return text;
}

/** Reads a hash; anything it does not understand is the home view. */
export function hashToNarrow(hash: string): Narrow {
  const parts = hash.replace(/^#/, '').split('/');
  if (parts[0] !== 'narrow') return { kind: 'all' };
  const terms: Term[] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const negated = parts[i]!.startsWith('-');
    const operator = canonicalOperator(parts[i]!.replace(/^-/, ''));
    const operand = operandFromHash(operator, parts[i + 1]!);
    if (operand === undefined) return { kind: 'all' };
    terms.push(negated ? { operator, operand, negated } : { operator, operand });
  }
  return termsToNarrow(terms);
}

export type ApiTerm = { operator: string; operand: string | number | number[]; negated?: boolean };

/** The narrow as GET /messages takes it: ids as numbers. */
export function narrowTerms(narrow: Narrow): ApiTerm[] {
  return narrowToTerms(narrow).map((t) => {
    let operand: ApiTerm['operand'] = t.operand;
    // The server takes ids as numbers for these; `near` stays a string, as its operand must be.
    if ((t.operator === 'stream' || t.operator === 'sender' || t.operator === 'id') && /^\d+$/.test(t.operand)) operand = Number(t.operand);
    if ((t.operator === 'dm' || t.operator === 'dm-including') && IDS.test(t.operand)) operand = t.operator === 'dm' ? parseIds(t.operand) : Number(t.operand);
    return t.negated ? { operator: t.operator, operand, negated: true } : { operator: t.operator, operand };
  });
}

/** Where a narrow's messages are fetched around: a message link's `near` (or `with`), else the newest. */
export function narrowAnchor(narrow: Narrow): number | 'newest' {
  const near = narrowToTerms(narrow).find((t) => (t.operator === 'near' || t.operator === 'with') && /^\d+$/.test(t.operand));
  return near ? Number(near.operand) : 'newest';
}

export function sameNarrow(a: Narrow, b: Narrow): boolean {
  return narrowToHash(a, String) === narrowToHash(b, String);
}
