// The built-in Unicode emoji table: Zulip's own names and codes (src/lib/emoji-table.json, built by
// scripts/build-emoji-table.ts). Codes are lowercase hex code points joined by "-", without the
// U+FE0F presentation selector, which is how the API names a unicode_emoji reaction or a rendered
// emoji. The table is read on first use, so a server that never meets an emoji never loads it.
import { createRequire } from 'node:module';

/** The committed table's shape (the type-only import also makes the build copy the file). */
type TableFile = typeof import('./emoji-table.json');

export interface EmojiTable {
  /** Every accepted name (aliases included) to its code. */
  codeByName: ReadonlyMap<string, string>;
  /** Every code to its names, the canonical one first. */
  namesByCode: ReadonlyMap<string, readonly string[]>;
  /** Emoticons such as ":)" to the name of the emoji they become. */
  emoticons: ReadonlyMap<string, string>;
  /** The table as the served emoji_api.json spells it. */
  codeToNames: Readonly<Record<string, readonly string[]>>;
}

/** Where the server serves the table to clients (server_emoji_data_url, src/http/emoji-data.ts). */
export const EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';

let table: EmojiTable | undefined;

export function normaliseEmojiCode(unified: string): string {
  return unified
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

export function emojiTable(): EmojiTable {
  if (table) return table;
  const file = createRequire(import.meta.url)('./emoji-table.json') as TableFile;
  const codeToNames = file.code_to_names as Record<string, string[]>;
  const codeByName = new Map<string, string>();
  const namesByCode = new Map<string, readonly string[]>();
  for (const [code, names] of Object.entries(codeToNames)) {
    namesByCode.set(code, names);
    for (const name of names) codeByName.set(name, code);
  }
  table = { codeByName, namesByCode, emoticons: new Map(Object.entries(file.emoticon_conversions)), codeToNames };
  return table;
}

export function emojiCodeForName(name: string): string | undefined {
  return emojiTable().codeByName.get(name);
}

/** The canonical name of an emoji code. */
export function emojiNameForCode(code: string): string | undefined {
  return emojiTable().namesByCode.get(code)?.[0];
}

/** The characters an emoji code stands for ("1f44d" to "👍"). */
export function emojiCharacters(code: string): string {
  return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
}
