// The emoji picker, loaded on first use: the server's emoji names (server_emoji_data_url) and the
// organization's custom emoji, searched by name; Enter in the search takes the first match.
import { useEffect, useState } from 'preact/hooks';
import type { EmojiChoice } from './act-actions.js';
import { ActButtons, ActDialog } from './act-dialog.js';
import { searchEmoji, type PickerEmoji } from './emoji-search.js';
import type { Model } from './model.js';
import { EmojiGlyph } from './reactions.js';
import './act.css';

export interface PickerProps {
  m: Model;
  onPick: (emoji: EmojiChoice) => void;
  onClose: () => void;
}

let unicodeEmoji: Promise<PickerEmoji[]> | undefined;

/** The server's table ({code_to_names: {code: [name, ...aliases]}}), fetched once per page. */
function loadUnicodeEmoji(url: string): Promise<PickerEmoji[]> {
  unicodeEmoji ??= fetch(new URL(url, location.href).pathname, { credentials: 'same-origin' })
    .then((res) => res.json() as Promise<{ code_to_names: Record<string, string[]> }>)
    .then(({ code_to_names }) =>
      Object.entries(code_to_names).map(([code, names]) => ({ emoji_name: names[0]!, emoji_code: code, reaction_type: 'unicode_emoji' as const, names })),
    );
  unicodeEmoji.catch(() => (unicodeEmoji = undefined));
  return unicodeEmoji;
}

/** Shown at most, so the grid stays quick; searching narrows it. */
const SHOWN = 240;

export function EmojiPicker({ m, onPick, onClose }: PickerProps) {
  const [all, setAll] = useState<PickerEmoji[] | null>(null);
  const [error, setError] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    loadUnicodeEmoji(m.emojiDataUrl).then(setAll, (e: Error) => setError(e.message));
  }, []);
  const custom: PickerEmoji[] = Object.values(m.realmEmoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ emoji_name: e.name, emoji_code: e.id, reaction_type: 'realm_emoji' as const, names: [e.name] }));
  const matches = all ? searchEmoji([...custom, ...all], query) : [];
  return (
    <ActDialog title="Add emoji reaction" onClose={onClose} wide>
      <input
        class="emoji-search"
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        autoFocus
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          if (matches[0]) onPick(matches[0]);
        }}
      />
      {error && <p role="alert" class="error">{error}</p>}
      {!all && !error && <p>Loading emoji…</p>}
      {all && matches.length === 0 && <p>No emoji match “{query}”.</p>}
      <div class="emoji-grid" role="group" aria-label="Emoji">
        {matches.slice(0, SHOWN).map((e) => (
          <button type="button" key={`${e.reaction_type}:${e.emoji_code}`} aria-label={`:${e.emoji_name}:`} title={`:${e.names.join(': :')}:`} onClick={() => onPick(e)}>
            <EmojiGlyph emoji={e} m={m} />
          </button>
        ))}
      </div>
      <ActButtons leave="Close" onLeave={onClose} />
    </ActDialog>
  );
}
