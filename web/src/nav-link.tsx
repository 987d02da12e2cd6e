// One row of the left sidebar: a link to a narrow with its unread count, marked when it is the
// open narrow, and (when it has unread messages) a button to mark them read.
import { type Narrow, narrowToHash, sameNarrow } from './narrow.js';
import { narrow, personName, status, streamName } from './store.js';

function Count({ n }: { n: number | undefined }) {
  return n ? <span class="count" aria-label={`${n} unread`}>{n}</span> : null;
}

/** Marks messages read on the server; the flag events it sends update every count. */
function markRead(action: () => Promise<unknown>): void {
  void action().catch((e: Error) => (status.value = e.message));
}

export interface NavLinkProps {
  target: Narrow;
  label: string;
  count?: number;
  markAs?: { name: string; action: () => Promise<unknown> };
  /** The whole label, where the sidebar cuts a long one short. */
  title?: string;
  /** Whether this is the open narrow, when the narrow's spelling alone cannot tell. */
  current?: boolean;
}

export function NavLink({ target, label, count, markAs, title, current = sameNarrow(target, narrow.value) }: NavLinkProps) {
  return (
    <li class="row">
      <a href={narrowToHash(target, streamName, personName)} title={title} aria-current={current ? 'page' : undefined} class={current ? 'current' : ''}>
        <span class="label">{label}</span> <Count n={count} />
      </a>
      {markAs && count ? (
        <button type="button" class="mark-read" aria-label={`Mark ${markAs.name} as read`} title={`Mark ${markAs.name} as read`} onClick={() => markRead(markAs.action)}>
          ✓
        </button>
      ) : null}
    </li>
  );
}
