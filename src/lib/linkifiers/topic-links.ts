// topic_links: the links a client shows for a topic. Linkifier matches (in linkifier order, the
// earlier winning on overlaps) and bare URLs, reported in order of appearance.
import { BoundedMap, remember } from '../bounded-map.js';
import { isSafeUrl } from '../markdown/safe-url.js';
import { acceptNonOverlapping, type CompiledLinkifier, findLinkifierLinks, type TextLink } from './match.js';

export interface TopicLink {
  text: string;
  url: string;
}

/** Topics split into URL candidates at these characters. */
const SPLITTER = /[ !;),'"]/;
/** Common generic top-level domains; every two-letter (country) domain is accepted as well. */
const GENERIC_TLDS =
  'com|org|net|edu|gov|mil|int|info|biz|name|pro|aero|coop|museum|mobi|asia|tel|travel|jobs|xyz|top|site|online|' +
  'club|shop|store|app|dev|page|blog|cloud|tech|news|io|ai|co|me|tv|ly|zone|live|link|wiki|design|email|space|website';
const WORD = '[\\p{L}\\p{N}_]';
const URL_AT_START = new RegExp(
  `^(?:https?://[\\p{L}\\p{N}_.:@-]+|(?:(?:${WORD}|-)+\\.)+(?:[a-z]{2}|${GENERIC_TLDS}))` +
    // An optional path, then only trailing punctuation up to the end of the piece.
    `(?:/[^\\s"(]*?)?(?=[!:;?),.'">]*$)`,
  'iu',
);

/** Bare URLs: each piece between splitter characters that starts with a URL. */
function bareUrls(topic: string): TextLink[] {
  const out: TextLink[] = [];
  let pos = 0;
  while (pos < topic.length) {
    const rest = topic.slice(pos);
    const split = rest.search(SPLITTER);
    const piece = split < 0 ? rest : rest.slice(0, split);
    const found = URL_AT_START.exec(piece);
    if (found && found[0] !== '') {
      const text = found[0];
      const url = /^https?:\/\//i.test(text) ? text : `https://${text}`;
      out.push({ start: pos, end: pos + text.length, url, text });
    }
    pos += piece.length + 1;
  }
  return out;
}

/** Memo of recent topics per compiled list: a page of messages mostly repeats a few topics. */
const memo = new WeakMap<readonly CompiledLinkifier[], BoundedMap<string, TopicLink[]>>();
const MEMO_SIZE = 500;

function compute(topic: string, linkifiers: readonly CompiledLinkifier[]): TopicLink[] {
  // A template can name any scheme; clients get only links that are safe to follow.
  const accepted = findLinkifierLinks(topic, linkifiers, (link) => isSafeUrl(link.url));
  acceptNonOverlapping(accepted, bareUrls(topic));
  return accepted.sort((a, b) => a.start - b.start).map(({ text, url }) => ({ text, url }));
}

export function topicLinks(topic: string, linkifiers: readonly CompiledLinkifier[]): TopicLink[] {
  if (topic === '') return [];
  // Without linkifiers only URLs count, and every URL has a dot.
  if (linkifiers.length === 0 && !topic.includes('.')) return [];
  let cache = memo.get(linkifiers);
  if (!cache) {
    cache = new BoundedMap(MEMO_SIZE);
    memo.set(linkifiers, cache);
  }
  return remember(cache, topic, () => compute(topic, linkifiers));
}
