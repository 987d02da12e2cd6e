// The tools beside each message: a quick 👍, and the "Message actions" menu (edit, move,
// resolve, delete, star, react, quote, copy link, edit history), offering only what the realm's
// rules let me do. The menu is a button and a list of menu items, used by mouse or keyboard.
import { signal } from '@preact/signals';
import { type ComponentChildren, render } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { actorOf, allowedActions, isResolved, nearHash, toggleResolved } from './act-rules.js';
import { changeMessage, report, setStarred, toggleReaction } from './act-actions.js';
import { ActDialog } from './act-dialog.js';
import type { Message } from './api.js';
import { EditHistory } from './edit-history.js';
import type { Model } from './model.js';
import { MoveDialog } from './move-dialog.js';
import { narrowToHash } from './narrow.js';
import { openEmojiPicker } from './reactions.js';
import { api, composeIntent, editingId, status, streamName } from './store.js';

const THUMBS_UP = { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' } as const;

type Dialog = 'move' | 'delete' | 'history' | null;

/**
 * The open message dialog, drawn by MessageDialogs outside the feed: the feed keeps only rows near
 * the screen in the page, and a dialog inside a row would vanish with it (and focusing it could
 * scroll the feed).
 */
const openDialog = signal<{ kind: Exclude<Dialog, null>; messageId: number } | null>(null);

function actionsButtonOf(messageId: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`main article[data-id="${messageId}"] [aria-haspopup=menu]`);
}

export function MessageDialogs({ m }: { m: Model }) {
  const open = openDialog.value;
  const msg = open ? m.messages.get(open.messageId) : undefined;
  // Focus goes back to the message's actions button (the menu item that opened the dialog is
  // gone), once the modal dialog has left the page, which keeps focus inside it until then.
  const close = () => {
    const id = open?.messageId;
    openDialog.value = null;
    if (id !== undefined) setTimeout(() => actionsButtonOf(id)?.focus({ preventScroll: true }));
  };
  useEffect(() => {
    // A deleted message takes its dialog with it.
    if (open && !msg) openDialog.value = null;
  }, [open, msg]);
  if (!open || !msg) return null;
  if (open.kind === 'move') return <MoveDialog msg={msg} m={m} onClose={close} />;
  if (open.kind === 'history') return <EditHistory msg={msg} m={m} onClose={close} />;
  return <DeleteDialog msg={msg} onClose={close} />;
}

interface Item {
  label: string;
  run: () => void;
}

function menuItems(msg: Message, m: Model, open: (d: Dialog) => void): Item[] {
  const can = allowedActions(msg, actorOf(m), m.editRules, Date.now() / 1000);
  const starred = msg.flags.includes('starred');
  const items: Item[] = [
    { label: 'Add emoji reaction', run: () => openEmojiPicker(msg.id) },
    { label: 'Quote and reply', run: () => (composeIntent.value = { kind: 'quote', messageId: msg.id }) },
  ];
  if (can.editContent || can.editTopic) items.push({ label: 'Edit message', run: () => (editingId.value = msg.id) });
  if (can.editTopic || can.moveStream) items.push({ label: 'Move messages', run: () => open('move') });
  if (can.editTopic) {
    const topic = msg.subject;
    items.push({
      label: isResolved(topic) ? 'Mark as unresolved' : 'Mark as resolved',
      run: () => void changeMessage(msg.id, { topic: toggleResolved(topic), propagateMode: 'change_all', notifyOld: false, notifyNew: true }).catch(report),
    });
  }
  items.push({ label: starred ? 'Unstar message' : 'Star message', run: () => void setStarred(msg.id, !starred) });
  items.push({ label: 'Copy link to message', run: () => void copyLink(msg, m) });
  if ((msg.edit_history || msg.last_edit_timestamp) && m.editRules.message_edit_history_visibility_policy !== 'none') {
    items.push({ label: 'View edit history', run: () => open('history') });
  }
  if (can.delete) items.push({ label: 'Delete message', run: () => open('delete') });
  return items;
}

async function copyLink(msg: Message, m: Model): Promise<void> {
  const hash = nearHash(msg, m.me.user_id, (streamId, topic) => narrowToHash({ kind: 'stream', streamId, topic }, streamName));
  const url = `${location.origin}${location.pathname}${hash}`;
  try {
    await navigator.clipboard.writeText(url);
    status.value = 'Link copied.';
    setTimeout(() => status.value === 'Link copied.' && (status.value = ''), 2000);
  } catch {
    status.value = `Copy this link: ${url}`;
  }
}

/**
 * Its children drawn at the end of the page instead of in place: the feed is a scroller whose rows
 * come and go, and a menu inside it was scrolled along (or away) when focused or clicked.
 */
function AtPageEnd({ children }: { children: ComponentChildren }) {
  const host = useMemo(() => document.createElement('div'), []);
  useLayoutEffect(() => {
    document.body.append(host);
    return () => {
      render(null, host);
      host.remove();
    };
  }, []);
  useLayoutEffect(() => render(<>{children}</>, host));
  return null;
}

function ActionsMenu({ items, onClose, button: opener }: { items: Item[]; onClose: (refocus: boolean) => void; button: { current: HTMLButtonElement | null } }) {
  const ref = useRef<HTMLUListElement>(null);
  // Fixed beside its button, below it or above when the window has no room below, so the feed's
  // edge never cuts it off. The feed may scroll while it is open (rows measured again, new messages):
  // the menu follows its button, and closes once the button is out of sight.
  const place = (): boolean => {
    const menu = ref.current;
    const button = opener.current;
    if (!menu || !button?.isConnected) return false;
    const at = button.getBoundingClientRect();
    if (at.bottom < 0 || at.top > innerHeight) return false;
    const below = at.bottom + 4 + menu.offsetHeight <= innerHeight - 8;
    menu.style.top = `${below ? at.bottom + 4 : Math.max(8, at.top - 4 - menu.offsetHeight)}px`;
    menu.style.right = `${Math.max(8, innerWidth - at.right)}px`;
    return true;
  };
  // Placed and focused before the next paint, so a key pressed right after opening reaches the menu.
  useLayoutEffect(() => {
    place();
    ref.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const outside = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && !opener.current?.contains(e.target as Node) && onClose(false);
    const scrolled = (e: Event) => !ref.current?.contains(e.target as Node) && !place() && onClose(false);
    document.addEventListener('mousedown', outside);
    document.addEventListener('scroll', scrolled, true);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('scroll', scrolled, true);
    };
  }, []);
  const move = (step: number) => {
    const all = [...(ref.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLElement);
    all[(at + step + all.length) % all.length]?.focus({ preventScroll: true });
  };
  return (
    <AtPageEnd>
      <ul
        class="act-menu"
        role="menu"
        aria-label="Message actions"
        ref={ref}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') move(1);
          else if (e.key === 'ArrowUp') move(-1);
          // The menu sits at the page's end: Tab, like Escape, goes back to its button.
          else if (e.key === 'Escape' || e.key === 'Tab') onClose(true);
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      >
        {items.map((item) => (
          <li role="none" key={item.label}>
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                onClose(false);
                item.run();
              }}
            >
              {item.label}
            </button>
          </li>
        ))}
      </ul>
    </AtPageEnd>
  );
}

export function MessageTools({ msg, m }: { msg: Message; m: Model }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const setDialog = (kind: Dialog) => (openDialog.value = kind === null ? null : { kind, messageId: msg.id });
  const thumbsMine = (msg.reactions ?? []).some((r) => r.user_id === m.me.user_id && r.emoji_code === THUMBS_UP.emoji_code && r.reaction_type === 'unicode_emoji');
  return (
    <span
      class={menuOpen ? 'msg-tools open' : 'msg-tools'}
      onKeyDown={(e) => {
        // Escape on the button itself (focus not yet in the menu) still closes an open menu.
        if (e.key === 'Escape' && menuOpen && !e.defaultPrevented) {
          e.preventDefault();
          e.stopPropagation();
          setMenuOpen(false);
          button.current?.focus();
        }
      }}
    >
      {!thumbsMine && (
        <button type="button" class="tool" title="React with 👍" aria-label="React with thumbs up" onClick={() => void toggleReaction(msg.id, THUMBS_UP, false)}>
          👍
        </button>
      )}
      <button
        type="button"
        class="tool"
        ref={button}
        aria-label="Message actions"
        title="Message actions"
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        onClick={() => setMenuOpen(!menuOpen)}
      >
        ⋮
      </button>
      {menuOpen && (
        <ActionsMenu
          button={button}
          items={menuItems(msg, m, setDialog)}
          onClose={(refocus) => {
            setMenuOpen(false);
            if (refocus) button.current?.focus();
          }}
        />
      )}
    </span>
  );
}

function DeleteDialog({ msg, onClose }: { msg: Message; onClose: () => void }) {
  const [error, setError] = useState('');
  return (
    <ActDialog title="Delete message?" onClose={onClose}>
      <p>Deleting a message removes it for everyone. This cannot be undone.</p>
      {error && <p role="alert" class="error">{error}</p>}
      <div class="act-buttons">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          class="danger"
          onClick={() =>
            void api.deleteMessage(msg.id).then(onClose, (e: Error) => setError(e.message))
          }
        >
          Delete
        </button>
      </div>
    </ActDialog>
  );
}
