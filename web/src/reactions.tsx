// The reactions under a message: each emoji with its count, highlighted when mine, its title
// naming who reacted; clicking toggles mine. "Add reaction" opens the emoji picker, which is
// loaded (with the emoji names) only when first opened.
import { signal } from '@preact/signals';
import type { FunctionComponent } from 'preact';
import { emojiCharacters, summarizeReactions, type ReactionSummary } from './act-rules.js';
import { type EmojiChoice, report, toggleReaction } from './act-actions.js';
import type { Message } from './api.js';
import type { Model } from './model.js';
import type { PickerProps } from './emoji-picker.js';

/** The message whose emoji picker is open. */
export const pickerFor = signal<number | null>(null);
const Picker = signal<FunctionComponent<PickerProps> | null>(null);

/** Closes the picker and puts focus back on the message's tools (what opened it may be gone). */
function closePicker(messageId: number): void {
  pickerFor.value = null;
  // Once the modal picker has left the page: when the button that opened it is gone too, focus
  // would be lost, so it goes to the message's actions button.
  setTimeout(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    document.querySelector<HTMLElement>(`article[data-id="${messageId}"] [aria-haspopup=menu]`)?.focus();
  });
}

export function openEmojiPicker(messageId: number): void {
  if (!Picker.value) {
    import('./emoji-picker.js').then((module) => (Picker.value = module.EmojiPicker), report);
  }
  pickerFor.value = messageId;
}

/** The emoji itself: the character of a Unicode emoji, the image of a custom one, else its name. */
export function EmojiGlyph({ emoji, m }: { emoji: EmojiChoice; m: Model }) {
  if (emoji.reaction_type === 'realm_emoji') {
    const custom = m.realmEmoji[emoji.emoji_code];
    if (custom) return <img class="emoji-img" src={custom.source_url} alt={`:${emoji.emoji_name}:`} />;
  }
  const characters = emoji.reaction_type === 'unicode_emoji' ? emojiCharacters(emoji.emoji_code) : null;
  return <span class="emoji-char">{characters ?? `:${emoji.emoji_name}:`}</span>;
}

function ReactionButton({ msg, r, m }: { msg: Message; r: ReactionSummary; m: Model }) {
  return (
    <button
      type="button"
      class={r.mine ? 'reaction mine' : 'reaction'}
      aria-pressed={r.mine}
      aria-label={`:${r.emoji_name}: ${r.count}`}
      title={r.title}
      onClick={() => void toggleReaction(msg.id, r, r.mine)}
    >
      <EmojiGlyph emoji={r} m={m} />
      <span class="reaction-count">{r.count}</span>
    </button>
  );
}

export function Reactions({ msg, m }: { msg: Message; m: Model }) {
  const summary = summarizeReactions(msg.reactions ?? [], m.me.user_id, (id) => m.people.get(id)?.full_name ?? 'Someone');
  const Open = pickerFor.value === msg.id ? Picker.value : null;
  const mine = new Set(summary.filter((r) => r.mine).map((r) => r.key));
  return (
    <>
      {summary.length > 0 && (
        <div class="reactions" role="group" aria-label="Reactions">
          {summary.map((r) => (
            <ReactionButton key={r.key} msg={msg} r={r} m={m} />
          ))}
          <button type="button" class="reaction add" aria-label="Add reaction" title="Add reaction" onClick={() => openEmojiPicker(msg.id)}>
            +
          </button>
        </div>
      )}
      {Open && (
        <Open
          m={m}
          onPick={(emoji) => {
            closePicker(msg.id);
            void toggleReaction(msg.id, emoji, mine.has(`${emoji.reaction_type}:${emoji.emoji_code}`));
          }}
          onClose={() => closePicker(msg.id)}
        />
      )}
    </>
  );
}
