// The direct-message conversations under the "Direct messages" view, as Zulip's left sidebar has
// them: the people in each (or "You"), its unread count and a link to it, the open one marked. The
// newest few and every one with unread messages show; a toggle shows them all.
import { useState } from 'preact/hooks';
import { conversationName, dmConversations, dmKey, listedConversations } from './dm-conversations.js';
import type { Model } from './model.js';
import { NavLink } from './nav-link.js';
import { api, narrow } from './store.js';

/** How many of the newest conversations show without unread messages. */
const RECENT_SHOWN = 5;

function unreadIn(m: Model, key: string): number[] {
  return [...m.unread].filter(([, info]) => info.kind === 'dm' && info.conversation === key).map(([id]) => id);
}

export function DmList({ m }: { m: Model }) {
  const [all, setAll] = useState(false);
  const conversations = dmConversations(m);
  if (conversations.length === 0) return null;
  const target = narrow.value;
  const open = target.kind === 'dm' && target.userIds ? dmKey(target.userIds, m.me.user_id) : undefined;
  const shown = listedConversations(conversations, open, RECENT_SHOWN, all);
  return (
    <li>
      <ul class="topics dms" aria-label="Direct message conversations">
        {shown.map((c) => {
          const name = conversationName(m, c.userIds);
          const self = c.key === String(m.me.user_id);
          return (
            <NavLink
              key={c.key}
              target={{ kind: 'dm', userIds: c.userIds }}
              label={name}
              title={self ? `${m.me.full_name} (you)` : name}
              count={c.unread}
              current={c.key === open}
              markAs={{ name: `direct messages with ${self ? 'yourself' : name}`, action: () => api.markRead(unreadIn(m, c.key)) }}
            />
          );
        })}
      </ul>
      {(all || shown.length < conversations.length) && (
        <button type="button" class="quiet more-dms" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Fewer conversations' : 'More conversations'}
        </button>
      )}
    </li>
  );
}
