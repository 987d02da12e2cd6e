// The page: the sidebar of views, streams and topics (nav), the message feed under recipient bars
// and the compose box (main).
import { useEffect, useRef } from 'preact/hooks';
import type { Message } from './api.js';
import { Compose } from './compose.js';
import { showEmoji } from './emoji.js';
import { type Model, topicKey, unreadCounts } from './model.js';
import { type Narrow, narrowToHash, sameNarrow } from './narrow.js';
import { go, markSeenSoon, model, narrow, onScreen, status, streamName, topics, visibleMessages } from './store.js';

function Count({ n }: { n: number | undefined }) {
  return n ? <span class="count" aria-label={`${n} unread`}>{n}</span> : null;
}

function NavLink({ target, label, count }: { target: Narrow; label: string; count?: number }) {
  const current = sameNarrow(target, narrow.value);
  return (
    <li>
      <a href={narrowToHash(target, streamName)} aria-current={current ? 'page' : undefined} class={current ? 'current' : ''}>
        <span>{label}</span> <Count n={count} />
      </a>
    </li>
  );
}

function Sidebar({ m }: { m: Model }) {
  const counts = unreadCounts(m);
  const open = narrow.value.kind === 'stream' ? narrow.value.streamId : undefined;
  const streams = [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <nav aria-label="Views and streams">
      <h1 class="realm">{m.realmName}</h1>
      <ul>
        <NavLink target={{ kind: 'all' }} label="All messages" count={counts.total} />
        <NavLink target={{ kind: 'mentioned' }} label="Mentions" count={counts.mentions} />
        <NavLink target={{ kind: 'starred' }} label="Starred" />
        <NavLink target={{ kind: 'dm' }} label="Direct messages" count={counts.dms} />
      </ul>
      <h2>Streams</h2>
      <ul>
        {streams.map((s) => (
          <>
            <NavLink key={s.stream_id} target={{ kind: 'stream', streamId: s.stream_id }} label={`# ${s.name}`} count={counts.streams.get(s.stream_id)} />
            {s.stream_id === open && topics.value?.streamId === open && (
              <li>
                <ul class="topics" aria-label={`Topics in ${s.name}`}>
                  {topics.value.names.map((t) => (
                    <NavLink key={t} target={{ kind: 'stream', streamId: open, topic: t }} label={t} count={counts.topics.get(topicKey(open, t))} />
                  ))}
                </ul>
              </li>
            )}
          </>
        ))}
      </ul>
      <form method="post" action="/accounts/logout/" class="logout">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfFromCookie()} />
        <button type="submit">Log out {m.me.full_name}</button>
      </form>
    </nav>
  );
}

function csrfFromCookie(): string {
  return /(?:^|;\s*)csrftoken=([^;]*)/.exec(document.cookie)?.[1] ?? '';
}

function recipientKey(msg: Message): string {
  return msg.type === 'stream' ? topicKey(msg.stream_id!, msg.subject) : `dm:${dmPeople(msg)}`;
}

function dmPeople(msg: Message): string {
  return Array.isArray(msg.display_recipient) ? msg.display_recipient.map((p) => p.full_name).join(', ') : '';
}

function RecipientBar({ msg }: { msg: Message }) {
  if (msg.type !== 'stream') {
    return (
      <h2 class="recipient dm">
        <a href={narrowToHash({ kind: 'dm' }, streamName)}>Direct messages with {dmPeople(msg)}</a>
      </h2>
    );
  }
  const streamId = msg.stream_id!;
  return (
    <h2 class="recipient">
      <a href={narrowToHash({ kind: 'stream', streamId }, streamName)}># {streamName(streamId)}</a>
      <span aria-hidden="true"> › </span>
      <a href={narrowToHash({ kind: 'stream', streamId, topic: msg.subject }, streamName)}>{msg.subject}</a>
    </h2>
  );
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

function MessageView({ msg, unread }: { msg: Message; unread: boolean }) {
  const time = new Date(msg.timestamp * 1000);
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (content.current) showEmoji(content.current);
  }, [msg.content]);
  return (
    <article aria-label={`${msg.sender_full_name}, ${timeFormat.format(time)}`} class={unread ? 'message unread' : 'message'} data-id={msg.id}>
      <header>
        <strong class="sender">{msg.sender_full_name}</strong>
        <time dateTime={time.toISOString()}>{timeFormat.format(time)}</time>
        {msg.last_edit_timestamp ? <span class="edited">(edited)</span> : null}
      </header>
      {/* The server renders and sanitizes message content; it is meant to be shown as HTML. */}
      <div class="content" ref={content} dangerouslySetInnerHTML={{ __html: msg.content }} />
    </article>
  );
}

function Feed({ m }: { m: Model }) {
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
