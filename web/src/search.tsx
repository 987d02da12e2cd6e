// The search box in the top bar: Zulip's operator syntax, suggestions while typing (a combobox with
// a listbox, arrows to move, Enter or a click to take one), and Enter narrows to what it says.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Model } from './model.js';
import { narrowToTerms, termsToNarrow } from './narrow.js';
import { type Directory, parseSearch, suggest, type Suggestion, termsToSearch } from './search-suggest.js';
import { api, go, narrow, topics } from './store.js';
import './nav.css';

/** Topic names per stream: fetched once a search names the stream, plus those of loaded messages. */
const topicCache = new Map<number, string[]>();

function directoryOf(m: Model, refresh: () => void): Directory {
  return {
    meId: m.me.user_id,
    streams: [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name)),
    people: [...m.people.values()].filter((p) => !p.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name)),
    topics(streamId) {
      const open = topics.value?.streamId === streamId ? topics.value.names : undefined;
      if (!open && !topicCache.has(streamId)) {
        topicCache.set(streamId, []);
        void api.getTopics(streamId).then(({ topics: list }) => {
          topicCache.set(streamId, list.map((t) => t.name));
          refresh();
        }, () => topicCache.delete(streamId));
      }
      const loaded = [...m.messages.values()].filter((msg) => msg.stream_id === streamId).map((msg) => msg.subject);
      return [...new Set([...(open ?? topicCache.get(streamId) ?? []), ...loaded])];
    },
  };
}

export function Search({ m }: { m: Model }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [tick, setTick] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const dir = directoryOf(m, () => setTick((t) => t + 1));
  // The box says what the open narrow is, as search text.
  useEffect(() => {
    setText(narrow.value.kind === 'all' ? '' : termsToSearch(narrowToTerms(narrow.value), dir));
    setOpen(false);
  }, [narrow.value]);
  const suggestions = useMemo(() => (open ? suggest(text, dir) : []), [text, open, m, topics.value, tick]);

  function submit(query: string) {
    go(termsToNarrow(parseSearch(query, dir)));
    setOpen(false);
    setActive(-1);
    input.current?.blur();
  }

  function take(s: Suggestion) {
    // An operator alone ("stream:") waits for its operand; anything else narrows at once.
    if (s.query.endsWith(':')) {
      setText(s.query);
      setActive(-1);
      input.current?.focus();
    } else submit(s.query);
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      // -1 is the typed text itself; the choice cycles through it and the suggestions.
      const n = suggestions.length + 1;
      setActive((i) => ((i + 1 + step + n) % n) - 1);
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    } else if (e.key === 'Tab' && open && active >= 0 && suggestions[active]) {
      e.preventDefault();
      setText(suggestions[active].query);
      setActive(-1);
    }
  }

  const chosen = active >= 0 && active < suggestions.length ? active : -1;
  return (
    <form
      role="search"
      class="search"
      onSubmit={(e) => {
        e.preventDefault();
        const s = suggestions[chosen];
        if (s) take(s);
        else submit(text);
      }}
    >
      <input
        ref={input}
        type="search"
        aria-label="Search"
        placeholder="Search"
        aria-controls="search-suggestions"
        aria-autocomplete="list"
        aria-activedescendant={chosen >= 0 ? `search-suggestion-${chosen}` : undefined}
        autocomplete="off"
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        // Closed a moment after focus leaves, unless it has come back meanwhile (a stale close would
        // otherwise shut the list of the next search).
        onBlur={() => setTimeout(() => document.activeElement !== input.current && setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      {suggestions.length > 0 && (
        <ul id="search-suggestions" role="listbox" aria-label="Suggestions" class="suggestions">
          {suggestions.map((s, i) => (
            <li
              key={s.query}
              id={`search-suggestion-${i}`}
              role="option"
              aria-selected={i === chosen}
              class={i === chosen ? 'chosen' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                take(s);
              }}
            >
              <span class="query">{s.query.trim()}</span> <span class="label">{s.label}</span>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
