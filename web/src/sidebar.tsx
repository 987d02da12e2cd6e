// The left sidebar: views, subscribed streams with unread counts, and the open stream's topics.
import { type Model, topicKey, unreadCounts } from './model.js';
import { type Narrow, narrowToHash, sameNarrow } from './narrow.js';
import { narrow, streamName, topics } from './store.js';

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

export function Sidebar({ m }: { m: Model }) {
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

