// Work on the parsed inline tokens: bare domain names, linkifiers, Unicode emoji and emoticons in
// plain text runs (never inside code or links), strong-outside-em for ***x***, and noting links and
// images.
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { findBareDomains } from './autolink.js';
import { findEmoticons, findUnicodeEmoji } from './emoji-markup.js';
import { checkBudget } from './escape.js';
import { isSafeUrl } from './safe-url.js';
import type { RenderEnv } from './types.js';

const IMAGE_URL = /\.(?:png|jpe?g|gif|webp|bmp)(?:[?#]|$)/i;

/** A stretch of a text run that becomes a link (url) or ready-made HTML (html). */
interface Piece {
  start: number;
  end: number;
  url?: string;
  html?: string;
}
type TokenFactory = (type: string, tag: string, nesting: -1 | 0 | 1) => Token;

function overlaps(pieces: Piece[], start: number, end: number): boolean {
  for (const p of pieces) if (start < p.end && p.start < end) return true;
  return false;
}

function textPieces(text: string, env: RenderEnv): Piece[] {
  const pieces: Piece[] = [];
  const links = findBareDomains(text);
  if (env.context.linkify) links.push(...env.context.linkify(text, () => checkBudget(env)));
  for (const hit of links) {
    if (!(hit.start >= 0 && hit.end <= text.length && hit.start < hit.end) || !isSafeUrl(hit.url)) continue;
    if (!overlaps(pieces, hit.start, hit.end)) pieces.push({ start: hit.start, end: hit.end, url: hit.url });
  }
  const emoji = findUnicodeEmoji(text);
  if (env.context.translateEmoticons) emoji.push(...findEmoticons(text));
  for (const hit of emoji) {
    if (!overlaps(pieces, hit.start, hit.end)) pieces.push(hit);
  }
  return pieces.length > 1 ? pieces.sort((a, b) => a.start - b.start) : pieces;
}

function plainText(make: TokenFactory, content: string): Token {
  const token = make('text', '', 0);
  token.content = content;
  return token;
}

function splitText(token: Token, env: RenderEnv, make: TokenFactory): Token[] | null {
  const pieces = textPieces(token.content, env);
  if (pieces.length === 0) return null;
  const out: Token[] = [];
  let at = 0;
  for (const piece of pieces) {
    if (piece.start > at) out.push(plainText(make, token.content.slice(at, piece.start)));
    if (piece.url !== undefined) {
      const open = make('link_open', 'a', 1);
      open.attrs = [['href', piece.url]];
      open.markup = 'linkify';
      out.push(open, plainText(make, token.content.slice(piece.start, piece.end)), make('link_close', 'a', -1));
    } else {
      const html = make('zulip_html', '', 0);
      html.content = piece.html!;
      out.push(html);
    }
    at = piece.end;
  }
  if (at < token.content.length) out.push(plainText(make, token.content.slice(at)));
  return out;
}

/** ***x*** parses as em around strong; the reference writes strong around em. */
function strongOutsideEm(children: Token[]) {
  const partner = new Map<number, number>();
  const stack: number[] = [];
  children.forEach((t, i) => {
    if (t.type === 'em_open' || t.type === 'strong_open') stack.push(i);
    else if (t.type === 'em_close' || t.type === 'strong_close') {
      const open = stack.pop();
      if (open !== undefined) partner.set(open, i);
    }
  });
  for (const [open, close] of partner) {
    if (children[open]!.type !== 'em_open' || children[open + 1]?.type !== 'strong_open') continue;
    if (partner.get(open + 1) !== close - 1) continue;
    for (const [a, b] of [
      [open, open + 1],
      [close - 1, close],
    ] as const) {
      const first = children[a]!;
      children[a] = children[b]!;
      children[b] = first;
    }
  }
}

/** Links to the realm's own narrows and uploads are written relative, as the web app expects. */
function relativeToRealm(env: RenderEnv, link: Token) {
  const { realmUrl } = env.context;
  const href = link.attrGet('href');
  if (!realmUrl || !href) return;
  const prefix = `${realmUrl}/`;
  if (href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`)) link.attrSet('href', href.slice(prefix.length));
}

function noteLink(env: RenderEnv, link: Token) {
  relativeToRealm(env, link);
  env.hasLink = true;
  if (IMAGE_URL.test(link.attrGet('href') ?? '')) env.hasImage = true;
}

export function textRunsRule(state: StateCore): void {
  const env = state.env as RenderEnv;
  checkBudget(env);
  const make: TokenFactory = (type, tag, nesting) => new state.Token(type, tag, nesting);
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children: Token[] = [];
    let linkDepth = 0;
    let emphasis = false;
    for (const token of block.children) {
      if (token.type === 'em_open') emphasis = true;
      // Emphasis leaves empty text tokens behind; dropping them lets strongOutsideEm see adjacent pairs.
      if (token.type === 'text' && token.content === '') continue;
      if (token.type === 'link_open') {
        linkDepth++;
        noteLink(env, token);
      } else if (token.type === 'link_close') linkDepth--;
      const split = token.type === 'text' && linkDepth === 0 ? splitText(token, env, make) : null;
      if (split) {
        for (const t of split) if (t.type === 'link_open') noteLink(env, t);
        children.push(...split);
      } else children.push(token);
    }
    if (emphasis) strongOutsideEm(children);
    block.children = children;
  }
}
