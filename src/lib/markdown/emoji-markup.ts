// Emoji: :name: codes, Unicode emoji characters and (when the sender asks) emoticons such as :)
// all become the reference's emoji span.
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { emojiCodeForName, emojiNameForCode, emojiTable, normaliseEmojiCode } from '../emoji.js';
import { escapeHtml } from './escape.js';
import type { RenderEnv } from './types.js';

// Names are word characters (Unicode letters and digits too: :flag_åland_islands:), - and +.
const EMOJI_NAME = /^:([\p{L}\p{M}\p{N}_+-]{1,100}):/u;

export function emojiSpan(name: string, code: string): string {
  const label = escapeHtml(name.replace(/_/g, ' '));
  return `<span aria-label="${label}" class="emoji emoji-${escapeHtml(code)}" role="img" title="${label}">:${escapeHtml(name)}:</span>`;
}

/** A custom emoji, as the reference renders one: an image titled with its name. */
export function realmEmojiImage(name: string, src: string): string {
  const alt = escapeHtml(`:${name}:`);
  return `<img alt="${alt}" class="emoji" src="${escapeHtml(src)}" title="${escapeHtml(name.replace(/_/g, ' '))}">`;
}

export function emojiNameRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x3a /* : */) return false;
  const match = EMOJI_NAME.exec(src.slice(pos, Math.min(state.posMax, pos + 104)));
  if (!match) return false;
  // The organization's own emoji come first, even over a built-in one of the same name.
  const custom = (state.env as RenderEnv | undefined)?.context?.lookupRealmEmoji?.(match[1]!);
  if (custom !== undefined) {
    if (!silent) state.push('zulip_html', '', 0).content = realmEmojiImage(match[1]!, custom);
    state.pos += match[0].length;
    return true;
  }
  const code = emojiCodeForName(match[1]!);
  if (code === undefined) return false;
  if (!silent) state.push('zulip_html', '', 0).content = emojiSpan(match[1]!, code);
  state.pos += match[0].length;
  return true;
}

// Pictographs in the blocks the reference treats as emoji (so (c), (r) and TM stay text), with
// skin tones, ZWJ sequences and flags.
const EMOJI_BLOCKS = '\\u2000-\\u206F\\u2300-\\u27BF\\u2B00-\\u2BFF\\u3000-\\u303F\\u3200-\\u32FF\\u{1F000}-\\u{1FFFF}';
const PICTOGRAPH = `(?=[${EMOJI_BLOCKS}])\\p{Extended_Pictographic}(?:\\uFE0F|\\p{Emoji_Modifier})?`;
const UNICODE_EMOJI = new RegExp(`\\p{Regional_Indicator}{2}|${PICTOGRAPH}(?:\\u200D${PICTOGRAPH})*`, 'gu');
const MAYBE_EMOJI = /[\u2000-\u206F\u2300-\u27BF\u2B00-\u2BFF\u3000-\u303F\u3200-\u32FF\uD83C-\uD83E]/;

export interface EmojiHit {
  start: number;
  end: number;
  html: string;
}

/** Known Unicode emoji in a run of text; unknown pictographs are left alone. */
export function findUnicodeEmoji(text: string): EmojiHit[] {
  if (!MAYBE_EMOJI.test(text)) return [];
  const hits: EmojiHit[] = [];
  for (const match of text.matchAll(UNICODE_EMOJI)) {
    const chars = match[0];
    const code = normaliseEmojiCode([...chars].map((c) => c.codePointAt(0)!.toString(16)).join('-'));
    const name = emojiNameForCode(code);
    if (name !== undefined) hits.push({ start: match.index, end: match.index + chars.length, html: emojiSpan(name, code) });
  }
  return hits;
}

// An emoticon counts only standing alone: at either end of the text or next to a space, a tab, a
// newline or one of , . ; ? ! ( ) [ ] " ' (the reference's own list).
const EMOTICON_EDGE = `,.;?!()\\[\\] "'\\n\\t`;
let emoticonPattern: RegExp | undefined;

function emoticonRegExp(): RegExp {
  if (emoticonPattern) return emoticonPattern;
  const escaped = [...emojiTable().emoticons.keys()].map((e) => e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  emoticonPattern = new RegExp(`(?<![^${EMOTICON_EDGE}])(?:${escaped.join('|')})(?![^${EMOTICON_EDGE}])`, 'g');
  return emoticonPattern;
}

/** Emoticons in a run of text, as the emoji they stand for. */
export function findEmoticons(text: string): EmojiHit[] {
  const { emoticons } = emojiTable();
  const hits: EmojiHit[] = [];
  for (const match of text.matchAll(emoticonRegExp())) {
    const name = emoticons.get(match[0])!;
    hits.push({ start: match.index, end: match.index + match[0].length, html: emojiSpan(name, emojiCodeForName(name)!) });
  }
  return hits;
}
