// Searching the emoji picker's list by name: exact names first, then names that start with the
// words typed, then names that contain them; with nothing typed, the everyday reactions lead.
import type { EmojiChoice } from './act-actions.js';

export interface PickerEmoji extends EmojiChoice {
  /** Every name it answers to, the canonical one first. */
  names: string[];
}

/** 👍 🎉 🙂 ❤ 😂 😮 😢 🛠 ✅ 👀: the reactions people reach for most, as in Zulip's picker. */
const POPULAR = ['1f44d', '1f389', '1f642', '2764', '1f602', '1f62e', '1f622', '1f6e0', '2705', '1f440'];

export function searchEmoji(all: readonly PickerEmoji[], query: string): PickerEmoji[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replace(/[\s-]+/g, '_');
  if (q === '') {
    const rank = (e: PickerEmoji) => (e.reaction_type === 'unicode_emoji' ? POPULAR.indexOf(e.emoji_code) : -1);
    const popular = all.filter((e) => rank(e) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...popular, ...all.filter((e) => rank(e) < 0)];
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
