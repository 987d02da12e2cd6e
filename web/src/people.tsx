// The right sidebar: the organization's people with their presence, status and avatar; a click
// opens the direct messages with them. The tab reports its own presence every minute.
import { useEffect, useState } from 'preact/hooks';
import type { Model, Person } from './model.js';
import { narrowToHash } from './narrow.js';
import { peopleRows, PING_INTERVAL_MS, type PresenceState, statusEmoji, takePresences } from './presence.js';
import { api, model, personName, streamName } from './store.js';
import './people.css';

/** Reports this tab's presence now and every minute; the answer refreshes everyone's. */
function usePresencePing(): void {
  useEffect(() => {
    const ping = () => {
      const status = document.visibilityState === 'visible' ? 'active' : 'idle';
      void api.updatePresence(status).then(({ presences }) => {
        const m = model.value;
        if (!m || !presences) return;
        takePresences(m, presences);
        model.value = { ...m };
      }, () => undefined);
    };
    ping();
    const timer = setInterval(ping, PING_INTERVAL_MS);
    // Coming back to the tab counts as activity at once.
    const onVisible = () => document.visibilityState === 'visible' && ping();
    addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      removeEventListener('visibilitychange', onVisible);
    };
  }, []);
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');

/** The avatar image over the person's initials, which stay when the image cannot load. */
export function Avatar({ person }: { person: Pick<Person, 'user_id' | 'full_name' | 'avatar_url'> }) {
  const [failed, setFailed] = useState(false);
  return (
    <span class="avatar" aria-hidden="true" style={{ '--hue': String((person.user_id * 47) % 360) }}>
      {initials(person.full_name)}
      {person.avatar_url && !failed && <img src={person.avatar_url} alt="" loading="lazy" onError={() => setFailed(true)} />}
    </span>
  );
}

const MAX_LISTED = 300;

const PRESENCE_WORDS: Record<PresenceState, string> = { active: 'active', idle: 'idle', offline: 'offline' };

export function People({ m, id }: { m: Model; id?: string }) {
  usePresencePing();
  // Presence fades with time alone: look again every half minute.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const [filter, setFilter] = useState('');
  const all = peopleRows(m, Math.floor(Math.max(now, Date.now()) / 1000));
  const wanted = filter.trim().toLowerCase();
  const matching = wanted ? all.filter(({ person }) => `${person.full_name} ${person.email}`.toLowerCase().includes(wanted)) : all;
  // A large organization lists its first people; the filter finds the rest.
  const rows = matching.slice(0, MAX_LISTED);
  return (
    <aside id={id} class="people" aria-label="People">
      <h2>People</h2>
      <input type="search" class="filter" aria-label="Filter people" placeholder="Filter people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul>
        {rows.map(({ person, presence, status }) => {
          const emoji = statusEmoji(status);
          const text = status?.status_text ?? '';
          const me = person.user_id === m.me.user_id;
          return (
            <li key={person.user_id}>
              <a
                href={narrowToHash({ kind: 'dm', userIds: [person.user_id] }, streamName, personName)}
                aria-label={`${person.full_name}${me ? ' (you)' : ''}, ${PRESENCE_WORDS[presence]}${text ? `, ${text}` : ''}`}
                title={`${person.full_name} (${PRESENCE_WORDS[presence]})`}
              >
                <Avatar person={person} />
                <span class={`presence ${presence}`} />
                <span class="who">
                  <span class="name">
                    {person.full_name}
                    {me && <span class="you"> (you)</span>}
                  </span>
                  {(emoji || text) && (
                    <span class="status">
                      {emoji && <span class="status-emoji">{emoji}</span>} {text}
                    </span>
                  )}
                </span>
              </a>
            </li>
          );
        })}
      </ul>
      {matching.length > rows.length && <p class="more">and {matching.length - rows.length} more; filter to find them</p>}
      {matching.length === 0 && <p class="more">Nobody matches.</p>}
    </aside>
  );
}
