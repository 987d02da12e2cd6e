// The left sidebar: the organization, views (with the recent direct-message conversations),
// subscribed streams with unread counts and the open stream's topics; each row with unread messages
// has a button to mark them read, and one for all.
import { useState } from 'preact/hooks';
import { DmList } from './dm-list.js';
import { type Model, topicKey, unreadCounts } from './model.js';
import { NavLink } from './nav-link.js';
import { askPermission, canNotify } from './notify.js';
import { api, narrow, topics } from './store.js';
import './nav.css';

function RealmHeader({ m }: { m: Model }) {
  const [iconFailed, setIconFailed] = useState(false);
  return (
    <div class="realm">
      <span class="realm-icon" aria-hidden="true">
        {[...m.realmName][0] ?? '?'}
        {m.realmIcon && !iconFailed && <img src={m.realmIcon} alt="" onError={() => setIconFailed(true)} />}
      </span>
      <h1>{m.realmName}</h1>
    </div>
  );
}

function NotificationsButton() {
  const [permission, setPermission] = useState(() => (canNotify() ? Notification.permission : 'denied'));
  if (permission !== 'default') return null;
  return (
    <button type="button" class="quiet" onClick={() => void askPermission().then(() => setPermission(Notification.permission))}>
      Enable desktop notifications
    </button>
  );
}

export function Sidebar({ m, id }: { m: Model; id?: string }) {
  const counts = unreadCounts(m);
  const open = narrow.value.kind === 'stream' ? narrow.value.streamId : undefined;
  const streams = [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <nav id={id} aria-label="Views and streams">
      <RealmHeader m={m} />
      <ul>
        <NavLink target={{ kind: 'all' }} label="All messages" count={counts.total} markAs={{ name: 'all messages', action: () => api.markAllAsRead() }} />
        <NavLink target={{ kind: 'mentioned' }} label="Mentions" count={counts.mentions} />
        <NavLink target={{ kind: 'starred' }} label="Starred" />
        <NavLink target={{ kind: 'dm' }} label="Direct messages" count={counts.dms} />
        <DmList m={m} />
      </ul>
      <h2>Streams</h2>
      <ul>
        {streams.map((s) => (
          <>
            <NavLink
              key={s.stream_id}
              target={{ kind: 'stream', streamId: s.stream_id }}
              label={`# ${s.name}`}
              count={counts.streams.get(s.stream_id)}
              markAs={{ name: `# ${s.name}`, action: () => api.markStreamAsRead(s.stream_id) }}
            />
            {s.stream_id === open && topics.value?.streamId === open && (
              <li>
                <ul class="topics" aria-label={`Topics in ${s.name}`}>
                  {topics.value.names.map((t) => (
                    <NavLink
                      key={t}
                      target={{ kind: 'stream', streamId: open, topic: t }}
                      label={t}
                      count={counts.topics.get(topicKey(open, t))}
                      markAs={{ name: `topic ${t}`, action: () => api.markTopicAsRead(open, t) }}
                    />
                  ))}
                </ul>
              </li>
            )}
          </>
        ))}
      </ul>
      <div class="sidebar-foot">
        <NotificationsButton />
        <form method="post" action="/accounts/logout/" class="logout">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfFromCookie()} />
          <button type="submit">Log out {m.me.full_name}</button>
        </form>
      </div>
    </nav>
  );
}

function csrfFromCookie(): string {
  return /(?:^|;\s*)csrftoken=([^;]*)/.exec(document.cookie)?.[1] ?? '';
}
