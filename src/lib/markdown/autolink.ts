// Bare URLs become links. URLs with a scheme are taken whole while parsing inline syntax (so
// emphasis markers inside them stay literal); www. and bare domain names are found in plain text
// runs afterwards. Cheaper than a general-purpose linkifier, which dominated the render cost.
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';

const SCHEME_BEFORE = /(?:^|[^A-Za-z0-9.+-])(https?)$/i;
const URL_BODY = /^:\/\/[^\s<>\u0000-\u001f\u007f]+/;
const TRAILING_PUNCTUATION = /[.,;:!?'"*~_]$/;

const TLDS =
  'com|org|net|edu|gov|mil|int|io|dev|app|ai|co|me|info|biz|xyz|chat|tech|cloud|online|site|us|uk|de|fr|es|it|nl|' +
  'be|ch|at|se|no|dk|fi|pl|cz|ru|ua|jp|cn|kr|in|au|nz|ca|br|mx|ar|eu|tv|fm|gg';
// Found by their top-level domain first, then walked back to the start of the name: far cheaper
// than trying a domain pattern at every position of the text.
const TLD_SET = new Set(TLDS.split('|'));
const DOMAIN_CHAR = /[A-Za-z0-9.-]/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAY_PRECEDE_DOMAIN = /[^\w@./:#%+-]/;
const PATH = /^[/?#][^\s<>]*/;

/** Drops trailing punctuation and unbalanced closing brackets, which belong to the sentence. */
export function trimUrl(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    if (last === undefined) return '';
    if (TRAILING_PUNCTUATION.test(last)) end--;
    else if (last === ')' || last === ']') {
      const open = last === ')' ? '(' : '[';
      const body = url.slice(0, end);
      if (body.split(open).length >= body.split(last).length) break;
      end--;
    } else break;
  }
  return url.slice(0, end);
}

export function schemeUrlRule(state: StateInline, silent: boolean): boolean {
  if ((state as unknown as { linkLevel: number }).linkLevel > 0 || state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const scheme = SCHEME_BEFORE.exec(state.pending);
  if (!scheme) return false;
  const body = URL_BODY.exec(state.src.slice(state.pos, state.posMax));
  if (!body) return false;
  const rest = trimUrl(body[0]);
  if (rest.length <= 3) return false;
  const url = scheme[1]! + rest;
  const href = state.md.normalizeLink(url);
  if (!state.md.validateLink(href)) return false;
  if (!silent) {
    state.pending = state.pending.slice(0, -scheme[1]!.length);
    const open = state.push('link_open', 'a', 1);
    open.attrs = [['href', href]];
    open.markup = 'linkify';
    state.push('text', '', 0).content = url;
    state.push('link_close', 'a', -1).markup = 'linkify';
  }
  state.pos += rest.length;
  return true;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Where a known top-level domain starting after `dot` ends, or -1. */
function tldEndAfter(text: string, dot: number): number {
  let end = dot + 1;
  while (end < text.length && isAsciiLetter(text.charCodeAt(end))) end++;
  if (end === dot + 1 || end - dot > 7) return -1;
  if (end < text.length && /[\w-]/.test(text[end]!)) return -1;
  return TLD_SET.has(text.slice(dot + 1, end).toLowerCase()) ? end : -1;
}

export interface DomainHit {
  start: number;
  end: number;
  url: string;
}

/** www.example.com and example.com/path in plain text, linked over http as the reference does. */
export function findBareDomains(text: string): DomainHit[] {
  if (!text.includes('.')) return [];
  const hits: DomainHit[] = [];
  let searchedTo = 0;
  for (let dot = text.indexOf('.'); dot >= 0; dot = text.indexOf('.', dot + 1)) {
    const tldEnd = tldEndAfter(text, dot);
    if (tldEnd < 0) continue;
    let start = dot;
    while (start > searchedTo && DOMAIN_CHAR.test(text[start - 1]!)) start--;
    if (start > 0 && !MAY_PRECEDE_DOMAIN.test(text[start - 1]!)) continue;
    while (text[start] === '.' || text[start] === '-') start++;
    const name = text.slice(start, tldEnd);
    if (!name.split('.').every((label) => LABEL.test(label)) || !name.includes('.')) continue;
    const path = PATH.exec(text.slice(tldEnd));
    const found = name + (path ? trimUrl(path[0]) : '');
    hits.push({ start, end: start + found.length, url: `http://${found}` });
    searchedTo = start + found.length;
  }
  return hits.filter((hit, i) => i === 0 || hit.start >= hits[i - 1]!.end);
}
