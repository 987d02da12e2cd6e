// The message feed: the open narrow's messages in runs under recipient bars; what is on screen is
// marked read.
import { useEffect, useRef } from 'preact/hooks';
import type { Message } from './api.js';
import { MessageView, RecipientBar, recipientKey } from './message.js';
import type { Model } from './model.js';
import { markSeenSoon, narrow, onScreen, visibleMessages } from './store.js';

export function Feed({ m }: { m: Model }) {
  const shown = visibleMessages();
  const feed = useRef<HTMLDivElement>(null);
  useEffect(() => {
    feed.current?.scrollTo({ top: 1e9 });
  }, [shown.length, narrow.value]);
  // Which messages are inside the feed's viewport, for marking them read once seen.
  useEffect(() => {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = Number((entry.target as HTMLElement).dataset.id);
          if (entry.isIntersecting) onScreen.add(id);
          else onScreen.delete(id);
        }
        markSeenSoon();
      },
      { root: feed.current },
    );
    onScreen.clear();
    feed.current?.querySelectorAll('article').forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  });
  const groups: Message[][] = [];
  for (const msg of shown) {
    const last = groups[groups.length - 1];
    if (last && recipientKey(last[0]!) === recipientKey(msg)) last.push(msg);
    else groups.push([msg]);
  }
  return (
    <div class="feed" ref={feed} aria-live="polite">
      {groups.length === 0 && <p class="empty">No messages here yet.</p>}
      {groups.map((g) => (
        <section key={g[0]!.id} class="group">
          <RecipientBar msg={g[0]!} />
          {g.map((msg) => (
            <MessageView key={msg.id} msg={msg} unread={m.unread.has(msg.id)} />
          ))}
        </section>
      ))}
    </div>
  );
}

