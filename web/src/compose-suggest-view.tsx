// Suggestions under the "To" field and the message box, as an ARIA listbox: arrows move, Enter or
// Tab picks, Esc closes. People and streams come from the model; groups, topics and emoji names are
// fetched the first time they are needed.
import { signal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { applySuggestion, messageToken, recipientToken, type Sources, type Suggestion, suggestionsFor, type Token } from './compose-suggest.js';
import type { Model } from './model.js';
import { api } from './store.js';

/** Where /register's server_emoji_data_url points: the Unicode emoji names the server knows. */
const EMOJI_DATA_URL = '/static/generated/emoji/emoji_api.json';

interface Loaded {
  groups?: Sources['groups'];
  emoji?: string[];
  topics: Map<number, string[]>;
}
const loaded = signal<Loaded>({ topics: new Map() });
const loading = new Set<string>();

function once(what: string, load: () => Promise<Partial<Loaded>>): void {
  if (loading.has(what)) return;
  loading.add(what);
  load()
    .then((part) => (loaded.value = { ...loaded.value, ...part }))
    .catch(() => loading.delete(what));
}

async function loadEmoji(): Promise<Partial<Loaded>> {
  const data = (await (await fetch(EMOJI_DATA_URL)).json()) as { code_to_names: Record<string, string[]> };
  const names = Object.values(data.code_to_names).flat();
  const custom = await api.call<{ emoji: Record<string, { name: string; deactivated: boolean }> }>('GET', '/realm/emoji').catch(() => ({ emoji: {} }));
  for (const e of Object.values(custom.emoji)) if (!e.deactivated) names.push(e.name);
  return { emoji: [...new Set(names)].sort() };
}

function fetchFor(token: Token, m: Model): void {
  if (token.kind === 'mention')
    once('groups', async () => {
      const { user_groups } = await api.call<{ user_groups: { id: number; name: string; description: string }[] }>('GET', '/user_groups');
      // System groups (role:…) are not mentioned by name.
      return { groups: user_groups.filter((g) => !g.name.startsWith('role:')) };
    });
  if (token.kind === 'emoji') once('emoji', loadEmoji);
  if (token.kind === 'topic') {
    const stream = [...m.streams.values()].find((s) => s.name.toLowerCase() === token.stream!.toLowerCase());
    if (stream)
      once(`topics:${stream.stream_id}`, async () => {
        const { topics } = await api.getTopics(stream.stream_id);
        return { topics: new Map(loaded.value.topics).set(stream.stream_id, topics.map((t) => t.name)) };
      });
  }
}

export interface Suggest {
  open: boolean;
  /** Handles the key if the list is open (and says so). */
  onKeyDown(event: KeyboardEvent): boolean;
  /** Call with the field after input, clicks and caret moves. */
  track(field: HTMLInputElement | HTMLTextAreaElement): void;
  fieldProps: Record<string, string | boolean | undefined>;
  list: preact.JSX.Element | null;
}

export function useSuggest(id: string, kind: 'to' | 'message', value: string, setValue: (text: string) => void, ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>, m: Model): Suggest {
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  const [moveCaret, setMoveCaret] = useState<number | null>(null);
  const position = caret ?? value.length;
  const token = caret === null ? null : kind === 'to' ? recipientToken(value, position) : messageToken(value, position);
  useEffect(() => {
    if (token) fetchFor(token, m);
  }, [token?.kind, token?.stream]);
  useEffect(() => setActive(0), [token?.kind, token?.query]);
  useEffect(() => {
    if (moveCaret === null || !ref.current) return;
    ref.current.setSelectionRange(moveCaret, moveCaret);
    setCaret(moveCaret);
    setMoveCaret(null);
  }, [moveCaret]);

  let suggestions: Suggestion[] = [];
  if (token) {
    const stream = token.kind === 'topic' ? [...m.streams.values()].find((s) => s.name.toLowerCase() === token.stream!.toLowerCase()) : undefined;
    const sources: Sources = {
      people: m.people.values(),
      groups: loaded.value.groups ?? [],
      streams: [...m.streams.values()],
      topics: (stream && loaded.value.topics.get(stream.stream_id)) ?? [],
      emoji: loaded.value.emoji ?? [],
      me: m.me.user_id,
    };
    const already = kind === 'to' ? value.slice(0, token.start).split(',').map((s) => s.trim()).filter(Boolean) : [];
    suggestions = suggestionsFor(token, sources, already);
    // After a finished name with no comma yet, nothing is being typed.
    if (kind === 'to' && token.query === '' && value.trim() !== '' && !value.trim().endsWith(',')) suggestions = [];
  }
  const open = suggestions.length > 0 && closedFor !== `${value}@${position}`;
  const current = Math.min(active, suggestions.length - 1);

  function pick(index: number): void {
    const chosen = suggestions[index];
    if (!token || !chosen) return;
    const next = applySuggestion(value, position, token, chosen);
    setValue(next.text);
    setMoveCaret(next.caret);
    // Closed until the next keystroke, so Tab and Enter go on to their usual work.
    setClosedFor(`${next.text}@${next.caret}`);
    ref.current?.focus();
  }

  return {
    open,
    onKeyDown(event) {
      if (!open) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current + step + suggestions.length) % suggestions.length);
      } else if ((event.key === 'Enter' && !event.shiftKey && !event.isComposing) || (event.key === 'Tab' && !event.shiftKey)) pick(current);
      else if (event.key === 'Escape') setClosedFor(`${value}@${position}`);
      else return false;
      event.preventDefault();
      event.stopPropagation();
      return true;
    },
    track(field) {
      setCaret(field.selectionStart ?? field.value.length);
    },
    fieldProps: {
      'aria-autocomplete': 'list',
      'aria-controls': open ? id : undefined,
      'aria-activedescendant': open ? `${id}-${current}` : undefined,
    },
    list: open ? (
      <ul id={id} role="listbox" class="suggestions" aria-label="Suggestions">
        {suggestions.map((s, i) => (
          <li
            key={s.text}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === current}
            class={i === current ? 'active' : ''}
            // mousedown, so the field keeps its focus and caret.
            onMouseDown={(e) => {
              e.preventDefault();
              pick(i);
            }}
          >
            <span>{s.label}</span>
            {s.detail && <small>{s.detail}</small>}
          </li>
        ))}
      </ul>
    ) : null,
  };
}
