// Searching the emoji picker's list by name: exact names first, then names that start with the
// words typed, then names that contain them; with nothing typed, the everyday reactions lead.
import type { EmojiChoice } from './act-actions.js';

export interface PickerEmoji extends EmojiChoice {
  /** Every name it answers to, the canonical one first. */
  names: string[];
}

/** 👍 🎉 🙂 ❤ 😂 😮 😢 🛠 ✅ 👀: the reactions people reach for most, as in Zulip's picker. */
const POPULAR = ['1f44d', '1f389', '1f642', '2764', '1f602', '1f62e', '1f622', '1f6e0', '2705', '1f440'];

/** Faces, then people and gestures, nature and things, travel, and the rest (symbols) last. */
const BLOCKS: [number, number][] = [
  [0x1f600, 0x1f64f],
  [0x1f910, 0x1f9ff],
  [0x1f440, 0x1f4ff],
  [0x1f300, 0x1f43f],
  [0x1f680, 0x1f6ff],
];

function sortByBlock(list: PickerEmoji[]): PickerEmoji[] {
  const block = (e: PickerEmoji) => {
    const first = Number.parseInt(e.emoji_code, 16);
    const at = BLOCKS.findIndex(([low, high]) => first >= low && first <= high);
    return at < 0 ? BLOCKS.length : at;
  };
  return list.map((e, at) => ({ e, at, block: block(e) })).sort((a, b) => a.block - b.block || a.at - b.at).map((x) => x.e);
}

export function searchEmoji(all: readonly PickerEmoji[], query: string): PickerEmoji[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replace(/[\s-]+/g, '_');
  if (q === '') {
    const rank = (e: PickerEmoji) => (e.reaction_type === 'unicode_emoji' ? POPULAR.indexOf(e.emoji_code) : -1);
    const popular = all.filter((e) => rank(e) >= 0).sort((a, b) => rank(a) - rank(b));
    const rest = all.filter((e) => rank(e) < 0);
    return [...popular, ...rest.filter((e) => e.reaction_type !== 'unicode_emoji'), ...sortByBlock(rest.filter((e) => e.reaction_type === 'unicode_emoji'))];
  }
  const scored: { e: PickerEmoji; score: number; at: number }[] = [];
  all.forEach((e, at) => {
    let score = 0;
    for (const name of e.names) {
      if (name === q) score = Math.max(score, 3);
      else if (name.startsWith(q) || name.includes(`_${q}`)) score = Math.max(score, 2);
      else if (name.includes(q)) score = Math.max(score, 1);
    }
    if (score > 0) scored.push({ e, score, at });
  });
  return scored.sort((a, b) => b.score - a.score || a.at - b.at).map((s) => s.e);
}
