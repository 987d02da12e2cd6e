// Narrows (which messages the feed shows), their Zulip-style hash URLs, and the API's narrow terms.

export type Narrow =
  | { kind: 'all' }
  | { kind: 'mentioned' }
  | { kind: 'starred' }
  | { kind: 'dm' }
  | { kind: 'stream'; streamId: number; topic?: string };

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

/** Stream slugs are "42-general": the id leads; the name is only for people reading the URL. */
function streamSlug(streamId: number, name: string): string {
  return `${streamId}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

export function narrowToHash(narrow: Narrow, streamName: (id: number) => string): string {
  switch (narrow.kind) {
    case 'all':
      return '#all_messages';
    case 'mentioned':
      return '#narrow/is/mentioned';
    case 'starred':
      return '#narrow/is/starred';
    case 'dm':
      return '#narrow/is/dm';
    case 'stream': {
      const base = `#narrow/stream/${streamSlug(narrow.streamId, streamName(narrow.streamId))}`;
      return narrow.topic === undefined ? base : `${base}/topic/${encodeHashComponent(narrow.topic)}`;
    }
  }
}

/** Reads a hash; anything it does not understand is the home view. */
export function hashToNarrow(hash: string): Narrow {
  const parts = hash.replace(/^#/, '').split('/');
  if (parts[0] !== 'narrow') return { kind: 'all' };
  const [operator, operand, op2, operand2] = parts.slice(1);
  if ((operator === 'stream' || operator === 'channel') && operand) {
    const streamId = Number.parseInt(operand, 10);
    if (!Number.isSafeInteger(streamId)) return { kind: 'all' };
    if ((op2 === 'topic' || op2 === 'subject') && operand2 !== undefined) return { kind: 'stream', streamId, topic: decodeHashComponent(operand2) };
    return { kind: 'stream', streamId };
  }
  if (operator === 'is' && operand === 'mentioned') return { kind: 'mentioned' };
  if (operator === 'is' && operand === 'starred') return { kind: 'starred' };
  if (operator === 'is' && (operand === 'dm' || operand === 'private')) return { kind: 'dm' };
  return { kind: 'all' };
}

/** The narrow as GET /messages takes it. */
export function narrowTerms(narrow: Narrow): { operator: string; operand: string | number }[] {
  switch (narrow.kind) {
    case 'all':
      return [];
    case 'mentioned':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'dm':
      return [{ operator: 'is', operand: 'dm' }];
    case 'stream':
      return [
        { operator: 'stream', operand: narrow.streamId },
        ...(narrow.topic === undefined ? [] : [{ operator: 'topic', operand: narrow.topic }]),
      ];
  }
}

export function sameNarrow(a: Narrow, b: Narrow): boolean {
  return narrowToHash(a, String) === narrowToHash(b, String);
}
