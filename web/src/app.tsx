// The page: the sidebar of views, streams and topics (nav), the message feed and the compose box (main).
import { useEffect } from 'preact/hooks';
import { Compose } from './compose.js';
import { Feed } from './feed.js';
import { Sidebar } from './sidebar.js';
import { go, model, status } from './store.js';

export function App() {
  const m = model.value;
  useEffect(() => {
    const scheme = m?.colorScheme ?? 1;
    document.documentElement.dataset.theme = scheme === 2 ? 'dark' : scheme === 3 ? 'light' : 'auto';
    if (m) document.title = `${m.unread.size > 0 ? `(${m.unread.size}) ` : ''}${m.realmName} · Confab`;
  }, [m]);
  if (!m) return <p class="loading">{status.value || 'Loading…'}</p>;
  return (
    <div class="layout">
      <Sidebar m={m} />
      <main>
        {status.value && <p role="status" class="status">{status.value}</p>}
        <Feed m={m} />
        <Compose m={m} />
      </main>
    </div>
  );
}

export { go };
