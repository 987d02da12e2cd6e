// The built-in Unicode emoji table: names and code points from the emoji-datasource package.
// Codes are lowercase hex code points joined by "-", without the U+FE0F presentation selector,
// which is how the API names a unicode_emoji reaction or a rendered emoji.
import { createRequire } from 'node:module';

interface SourceEmoji {
  unified: string;
  short_name: string;
  short_names: string[];
}

export interface EmojiTable {
  /** Every accepted name (aliases included) to its code. */
  codeByName: ReadonlyMap<string, string>;
  /** Every code to its canonical (first) name. */
  nameByCode: ReadonlyMap<string, string>;
}

let table: EmojiTable | undefined;

export function normaliseEmojiCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

/** Loaded once, on first use, so start-up does not pay for it. */
export function emojiTable(): EmojiTable {
  if (table) return table;
  const source = createRequire(import.meta.url)('emoji-datasource/emoji.json') as SourceEmoji[];
  const codeByName = new Map<string, string>();
  const nameByCode = new Map<string, string>();
  for (const emoji of source) {
    const code = normaliseEmojiCode(emoji.unified);
    if (!nameByCode.has(code)) nameByCode.set(code, emoji.short_name);
    for (const name of emoji.short_names) if (!codeByName.has(name)) codeByName.set(name, code);
  }
  table = { codeByName, nameByCode };
  return table;
}

export function emojiCodeForName(name: string): string | undefined {
  return emojiTable().codeByName.get(name);
}

export function emojiNameForCode(code: string): string | undefined {
  return emojiTable().nameByCode.get(code);
}

/** The characters an emoji code stands for ("1f44d" to "👍"). */
export function emojiCharacters(code: string): string {
  return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
}
