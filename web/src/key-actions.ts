// What each keyboard shortcut (keys.ts) does to the running client: moving the selection, asking the
// compose box for a reply or a new conversation, going to the next unread topic or direct-message
// conversation, starring, editing, searching and the help panel.
import { signal } from '@preact/signals';
import { feedMessages, narrowKey, openNarrow, ranges } from './feed-load.js';
import { dmConversations, dmKey, nextUnreadConversation } from './dm-conversations.js';
import { focusOf, moveSelection, nextUnreadTopic, type Shortcut, shortcutFor } from './keys.js';
import { api, composeIntent, editingId, go, model, narrow, selectedId, status } from './store.js';

/** Whether the shortcut help panel is open. */
export const helpOpen = signal(false);

/** The field labeled "Search", wherever the page puts it. */
function searchField(): HTMLElement | null {
  const labeled = document.querySelector<HTMLElement>('[aria-label="Search"]');
  if (labeled) return labeled;
  for (const label of document.querySelectorAll('label')) {
    if (label.textContent?.trim() === 'Search' && label.control) return label.control;
  }
  return null;
}

function selectedMessage() {
  const id = selectedId.value;
  return id === null ? undefined : model.value?.messages.get(id);
}

function perform(shortcut: Shortcut, target: EventTarget | null): boolean {
  const m = model.value;
  if (!m) return false;
  if (helpOpen.value && shortcut !== 'help' && shortcut !== 'escape') return false;
  switch (shortcut) {
    case 'next':
    case 'previous':
    case 'first':
    case 'last': {
      // Home and End reach the narrow's real ends, fetching them when they are not loaded.
      const range = ranges.value.get(narrowKey(narrow.value));
      if (shortcut !== 'next' && shortcut !== 'previous' && range && !(shortcut === 'last' ? range.foundNewest : range.foundOldest)) {
        void openNarrow(narrow.value, shortcut === 'last' ? 'newest' : 'oldest').catch((e: Error) => (status.value = e.message));
        return true;
      }
      const ids = (feedMessages() ?? []).map((msg) => msg.id);
      const next = moveSelection(ids, selectedId.value, shortcut);
      if (next === null) return false;
      selectedId.value = next;
      return true;
    }
    case 'reply': {
      const msg = selectedMessage();
      if (!msg) return false;
      composeIntent.value = { kind: 'reply', messageId: msg.id };
      return true;
    }
    case 'new-topic':
      composeIntent.value = { kind: 'new-topic' };
      return true;
    case 'new-dm':
      composeIntent.value = { kind: 'new-dm' };
      return true;
    case 'next-unread-topic': {
      const next = nextUnreadTopic(m, narrow.value);
      if (next) go(next);
      else status.value = 'No more unread topics.';
      return true;
    }
    case 'next-unread-dm': {
      const open = narrow.value.kind === 'dm' && narrow.value.userIds ? dmKey(narrow.value.userIds, m.me.user_id) : undefined;
      const next = nextUnreadConversation(dmConversations(m), open);
      // The conversation opens at its first unread message.
      if (next) go({ kind: 'dm', userIds: next.userIds });
      else status.value = 'No more unread direct messages.';
      return true;
    }
    case 'escape':
      if (helpOpen.value) helpOpen.value = false;
      else if (editingId.value !== null) editingId.value = null;
      else if (target instanceof HTMLElement && focusOf(target) === 'text') target.blur();
      else return false;
      return true;
    case 'search': {
      const field = searchField();
      if (!field) return false;
      field.focus();
      return true;
    }
    case 'star': {
      const msg = selectedMessage();
      if (!msg) return false;
      const starred = msg.flags.includes('starred');
      api
        .call('POST', '/messages/flags', { messages: [msg.id], op: starred ? 'remove' : 'add', flag: 'starred' })
        .catch((e: Error) => (status.value = e.message));
      return true;
    }
    case 'edit': {
      const msg = selectedMessage();
      if (!msg || msg.sender_id !== m.me.user_id) return false;
      editingId.value = msg.id;
      return true;
    }
    case 'help':
      helpOpen.value = !helpOpen.value;
      return true;
  }
}

export function onShortcutKey(event: KeyboardEvent): void {
  if (event.defaultPrevented || event.isComposing) return;
  const target = event.target instanceof Element ? event.target : null;
  // An open modal dialog (edit history, move, delete, emoji picker) or the inline editor owns the
  // keys; the help panel still takes ? and Esc.
  if (target?.closest('dialog, [role=dialog], [role=menu], form.edit-inline')) {
    if (!(helpOpen.value && (event.key === 'Escape' || event.key === '?'))) return;
  } else if (document.querySelector('dialog[open]:not(.shortcuts)')) return;
  const shortcut = shortcutFor({ key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, focus: focusOf(target) });
  if (shortcut && perform(shortcut, event.target)) event.preventDefault();
}

