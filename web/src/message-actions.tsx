// The tools beside each message: a quick 👍, and the "Message actions" menu (edit, move,
// resolve, delete, star, react, quote, copy link, edit history), offering only what the realm's
// rules let me do. The menu is a button and a list of menu items, used by mouse or keyboard.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
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

function ActionsMenu({ items, onClose }: { items: Item[]; onClose: (refocus: boolean) => void }) {
  const ref = useRef<HTMLUListElement>(null);
  // Fixed beside its button, below it or above when the window has no room below, so the feed's
  // edge never cuts it off. The feed may scroll while it is open (rows measured again, new messages):
  // the menu follows its button, and closes once the button is out of sight.
  const place = (): boolean => {
    const menu = ref.current;
    const button = menu?.parentElement?.querySelector('[aria-haspopup=menu]');
    if (!menu || !button?.isConnected) return false;
    const at = button.getBoundingClientRect();
    if (at.bottom < 0 || at.top > innerHeight) return false;
    const below = at.bottom + 4 + menu.offsetHeight <= innerHeight - 8;
    menu.style.top = `${below ? at.bottom + 4 : Math.max(8, at.top - 4 - menu.offsetHeight)}px`;
    menu.style.right = `${Math.max(8, innerWidth - at.right)}px`;
    return true;
  };
  useLayoutEffect(() => void place(), []);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus({ preventScroll: true });
    const outside = (e: MouseEvent) => !ref.current?.parentElement?.contains(e.target as Node) && onClose(false);
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
    all[(at + step + all.length) % all.length]?.focus();
  };
  return (
    <ul
      class="act-menu"
      role="menu"
      aria-label="Message actions"
      ref={ref}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') move(1);
        else if (e.key === 'ArrowUp') move(-1);
        else if (e.key === 'Escape') onClose(true);
        else if (e.key === 'Tab') onClose(false);
        else return;
        if (e.key !== 'Tab') e.preventDefault();
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
  );
}

export function MessageTools({ msg, m }: { msg: Message; m: Model }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Focus goes back to the menu's button, since the menu item that opened the dialog is gone; once
  // the modal dialog has left the page, which keeps focus inside it until then.
  const closeDialog = () => {
    setDialog(null);
    setTimeout(() => button.current?.focus());
  };
  const thumbsMine = (msg.reactions ?? []).some((r) => r.user_id === m.me.user_id && r.emoji_code === THUMBS_UP.emoji_code && r.reaction_type === 'unicode_emoji');
  return (
    <span class={menuOpen ? 'msg-tools open' : 'msg-tools'}>
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
          items={menuItems(msg, m, setDialog)}
          onClose={(refocus) => {
            setMenuOpen(false);
            if (refocus) button.current?.focus();
          }}
        />
      )}
      {dialog === 'move' && <MoveDialog msg={msg} m={m} onClose={closeDialog} />}
      {dialog === 'history' && <EditHistory msg={msg} m={m} onClose={closeDialog} />}
      {dialog === 'delete' && <DeleteDialog msg={msg} onClose={closeDialog} />}
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
