// The page: the sidebar of views, streams and topics (nav), the message feed and the compose box (main).
import { useEffect, useState } from 'preact/hooks';
import { Compose } from './compose.js';
import { Feed } from './feed.js';
import { InviteButton } from './invite-button.js';
import { MessageDialogs } from './message-actions.js';
import { People } from './people.js';
import { Search } from './search.js';
import { Sidebar } from './sidebar.js';
import { go, model, narrow, status } from './store.js';

/** On narrow screens the sidebars fold away; these buttons in the top bar open one at a time. */
function FoldButton({ controls, label, open, toggle }: { controls: string; label: string; open: boolean; toggle: () => void }) {
  return (
    <button type="button" class="fold" aria-controls={controls} aria-expanded={open} onClick={toggle}>
      {label}
    </button>
  );
}

export function App() {
  const m = model.value;
  const [unfolded, setUnfolded] = useState<'nav' | 'people' | null>(null);
  // Choosing a narrow folds the sidebar away again.
  useEffect(() => setUnfolded(null), [narrow.value]);
  // Escape folds an open sidebar away (on narrow screens it covers the feed). Listening all along
  // (folding a folded sidebar changes nothing): a listener added once the sidebar had opened came
  // after the paint, and an Escape pressed right away was lost.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setUnfolded(null);
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
  const toggle = (which: 'nav' | 'people') => setUnfolded((u) => (u === which ? null : which));
  useEffect(() => {
    const scheme = m?.colorScheme ?? 1;
    document.documentElement.dataset.theme = scheme === 2 ? 'dark' : scheme === 3 ? 'light' : 'auto';
    if (m) document.title = `${m.unread.size > 0 ? `(${m.unread.size}) ` : ''}${m.realmName} · Confab`;
  }, [m]);
  if (!m) return <p class="loading">{status.value || 'Loading…'}</p>;
  return (
    <div class={`layout${unfolded ? ` show-${unfolded}` : ''}`}>
      <header class="topbar">
        <FoldButton controls="left-sidebar" label="Views and streams" open={unfolded === 'nav'} toggle={() => toggle('nav')} />
        <Search m={m} />
        <FoldButton controls="right-sidebar" label="People" open={unfolded === 'people'} toggle={() => toggle('people')} />
        <InviteButton m={m} />
      </header>
      <Sidebar m={m} id="left-sidebar" />
      <main>
        {status.value && <p role="status" class="status">{status.value}</p>}
        <Feed m={m} />
        <Compose m={m} />
        <MessageDialogs m={m} />
      </main>
      <People m={m} id="right-sidebar" />
    </div>
  );
}

export { go };
