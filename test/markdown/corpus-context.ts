// The realm the Markdown corpus renders against: a few users, groups, streams and one linkifier.
import type { LinkifierMatch, RenderContext } from '../../src/lib/markdown/index.js';

const users = [
  { id: 10, full_name: 'King Hamlet' },
  { id: 11, full_name: 'Iago' },
  { id: 12, full_name: 'Twin' },
  { id: 13, full_name: 'Twin' },
  { id: 14, full_name: `<b>"Evil" & 'Co'</b>` },
  { id: 15, full_name: 'Othello, the Moor of Venice' },
];
const groups = [
  { id: 3, name: 'support' },
  { id: 4, name: 'role:members' },
  { id: 5, name: 'a"<b>' },
];
const streams = [
  { id: 1, name: 'Denmark' },
  { id: 2, name: 'Verona Hall' },
  { id: 8, name: 'Evil "quoted" <img src=x onerror=alert(1)' },
];
const latest = new Map([['1:some topic', 42]]);

/** A stand-in for a realm linkifier: #NNN (2 to 8 digits, whole words) to a ticket tracker. */
function ticketLinkifier(text: string): LinkifierMatch[] {
  const out: LinkifierMatch[] = [];
  for (const m of text.matchAll(/(?<![\w#])#([0-9]{2,8})(?![\w])/g)) {
    out.push({ start: m.index, end: m.index + m[0].length, url: `https://trac.example.com/ticket/${m[1]}` });
  }
  for (const m of text.matchAll(/EVIL-([^\s]+)/g)) {
    // A hostile template result: quotes and angle brackets must be escaped, bad schemes dropped.
    const url = m[1]!.startsWith('js') ? `javascript:alert("${m[1]}")` : `https://x.example/"onmouseover="alert(1)"<${m[1]}>`;
    out.push({ start: m.index, end: m.index + m[0].length, url });
  }
  return out;
}

export const corpusContext: RenderContext = {
  lookupUser: (name, id) => {
    if (id !== null) {
      const user = users.find((u) => u.id === id);
      return user && (name === '' || user.full_name.toLowerCase() === name.toLowerCase()) ? user : undefined;
    }
    const named = users.filter((u) => u.full_name.toLowerCase() === name.toLowerCase());
    return named.length === 1 ? named[0] : undefined;
  },
  lookupUserGroup: (name) => groups.find((g) => g.name === name),
  lookupStream: (name) => streams.find((s) => s.name.toLowerCase() === name.toLowerCase()),
  topicLatestMessageId: (streamId, topic) => latest.get(`${streamId}:${topic.toLowerCase()}`),
  linkify: ticketLinkifier,
};
