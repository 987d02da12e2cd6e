// Builds src/lib/emoji-table.json, the emoji table the server reads, from Zulip's emoji names
// (scripts/emoji/zulip-emoji-names.txt; see scripts/emoji/README.md for where they come from).
// Run once after changing the names: npx tsx scripts/build-emoji-table.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SOURCE = join(ROOT, 'scripts', 'emoji', 'zulip-emoji-names.txt');
const TARGET = join(ROOT, 'src', 'lib', 'emoji-table.json');

/** Zulip's emoticon conversions (EMOTICON_CONVERSIONS in its emoji_setup_utils.py), in its order. */
const EMOTICON_CONVERSIONS: Record<string, string> = {
  ':)': 'smile',
  '(:': 'smile',
  ':(': 'frown',
  '<3': 'heart',
  ':|': 'neutral',
  ':/': 'confused',
  ';)': 'wink',
  ':D': 'grinning',
  ':o': 'open_mouth',
  ':O': 'open_mouth',
  ':p': 'stuck_out_tongue',
  ':P': 'stuck_out_tongue',
};

const CODE = /^[0-9a-f]{4,5}(?:-[0-9a-f]{4,5})*$/;

function knownCodes(): Set<string> {
  const source = createRequire(import.meta.url)('emoji-datasource/emoji.json') as Array<{ unified: string }>;
  const unqualified = (unified: string) => unified.toLowerCase().split('-').filter((part) => part !== 'fe0f').join('-');
  return new Set(source.map((emoji) => unqualified(emoji.unified)));
}

function main(): void {
  const known = knownCodes();
  // An array, not an object: an object would move all-digit codes such as "2049" to the front.
  const entries: Array<[string, string[]]> = [];
  const listed = new Set<string>();
  const seen = new Map<string, string>();
  for (const [index, line] of readFileSync(SOURCE, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    const [code = '', ...names] = line.split(' ');
    const where = `${SOURCE}:${index + 1}`;
    if (!CODE.test(code)) throw new Error(`${where}: bad code ${code}`);
    if (!known.has(code)) throw new Error(`${where}: ${code} is not an emoji emoji-datasource knows`);
    if (listed.has(code)) throw new Error(`${where}: ${code} listed twice`);
    if (names.length === 0 || names.some((name) => name === '')) throw new Error(`${where}: names missing`);
    for (const name of names) {
      const other = seen.get(name);
      if (other !== undefined) throw new Error(`${where}: ${name} already names ${other}`);
      seen.set(name, code);
    }
    listed.add(code);
    entries.push([code, names]);
  }
  for (const [emoticon, name] of Object.entries(EMOTICON_CONVERSIONS)) {
    if (!seen.has(name)) throw new Error(`emoticon ${emoticon} names unknown emoji ${name}`);
  }
  // One emoji a line keeps diffs of the committed table readable.
  const rows = entries.map(([code, names]) => `  ${JSON.stringify(code)}: ${JSON.stringify(names)}`);
  const text = [
    '{',
    '"code_to_names": {',
    rows.join(',\n'),
    '},',
    `"emoticon_conversions": ${JSON.stringify(EMOTICON_CONVERSIONS)}`,
    '}',
    '',
  ].join('\n');
  writeFileSync(TARGET, text);
  console.log(`${TARGET}: ${rows.length} emoji, ${seen.size} names`);
}

main();
