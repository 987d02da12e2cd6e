// Emoji: :name: codes and Unicode emoji characters both become the reference's emoji span.
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { emojiCodeForName, emojiNameForCode, normaliseEmojiCode } from '../emoji.js';
import { escapeHtml } from './escape.js';

const EMOJI_NAME = /^:([A-Za-z0-9_+-]{1,100}):/;

export function emojiSpan(name: string, code: string): string {
  const label = escapeHtml(name.replace(/_/g, ' '));
  return `<span aria-label="${label}" class="emoji emoji-${escapeHtml(code)}" role="img" title="${label}">:${escapeHtml(name)}:</span>`;
}

export function emojiNameRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x3a /* : */) return false;
  const match = EMOJI_NAME.exec(src.slice(pos, Math.min(state.posMax, pos + 104)));
  if (!match) return false;
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
