// Full-text search terms: how a search operand becomes index words and quoted phrases,
// how the in-memory predicate decides a match, and how matches are highlighted.
//
// Both stores stem words (SQLite's porter tokenizer, PostgreSQL's English dictionary) and
// PostgreSQL drops English stop words; the words list drops the same stop words so that
// both stores agree on simple word queries.
import { porterStem } from './stem.js';
import type { SearchQuery } from './types.js';

/** PostgreSQL's English stop-word list: words its full-text search never indexes. */
const STOP_WORDS = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
  hers herself it its itself they them their theirs themselves what which who whom this that these those
  am is are was were be been being have has had having do does did doing a an the and but if or because
  as until while of at by for with about against between into through during before after above below to
  from up down in out on off over under again further then once here there when where why how all any both
  each few more most other some such no nor not only own same so than too very s t can will just don
  should now`.split(/\s+/),
);

const WORD = /[\p{L}\p{N}]+/gu;
const PHRASE = /"([^"]+)"/g;

/** Lower-cased, without diacritics: what both indexes compare. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function searchWords(text: string): string[] {
  return [...text.matchAll(WORD)].map((m) => foldWord(m[0]));
}

/** One search query from the operands of every search term it combines. */
export function parseSearchQuery(operands: readonly string[]): SearchQuery {
  const text = operands.join(' ');
  const phrases = [...text.matchAll(PHRASE)].map((m) => m[1]!).filter((p) => p.trim() !== '');
  const words = [...new Set(searchWords(text).filter((w) => !STOP_WORDS.has(w)))];
  return { text, words, phrases };
}

/** Whether a message's topic and content contain every word (as stems) and every phrase. */
export function matchesSearch(query: SearchQuery, topic: string, content: string): boolean {
  if (query.words.length === 0) return false;
  const stems = new Set(searchWords(`${topic} ${content}`).map(porterStem));
  if (!query.words.every((w) => stems.has(porterStem(w)))) return false;
  const haystacks = [topic.toLowerCase(), content.toLowerCase()];
  return query.phrases.every((p) => haystacks.some((h) => h.includes(p.toLowerCase())));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

// Tags, entities and words of an HTML string; only words are candidates for highlighting.
const HTML_PIECES = /(<[^>]*>?)|(&[#\p{L}\p{N}]+;)|([\p{L}\p{N}]+)/gu;

/** The HTML with every word of the query wrapped in <span class="highlight">, tags and entities left alone. */
export function highlightHtml(html: string, query: SearchQuery): string {
  const stems = new Set(query.words.map(porterStem));
  if (stems.size === 0) return html;
  return html.replace(HTML_PIECES, (piece, tag, entity, word) => {
    if (tag || entity) return piece;
    return stems.has(porterStem(foldWord(word))) ? `<span class="highlight">${word}</span>` : piece;
  });
}

/** match_content and match_subject of one searched message. */
export function searchHighlights(query: SearchQuery, renderedContent: string, topic: string) {
  return {
    match_content: highlightHtml(renderedContent, query),
    match_subject: highlightHtml(escapeHtml(topic), query),
  };
}
