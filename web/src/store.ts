// The running client's state as signals: the model (re-published after each change), the open
// narrow (kept in the URL's hash), and the actions the UI calls.
import { signal } from '@preact/signals';
import { createApi, type Message, type ZEvent } from './api.js';
import { carryLocalEchoes } from './compose-echo.js';
import { runEventLoop } from './event-loop.js';
import { openNarrow } from './feed-load.js';
import { applyEvent, EVENT_TYPES, FETCH_TYPES, fromRegister, messagesIn, type Model } from './model.js';
import { hashToNarrow, type Narrow, narrowAnchor, narrowToHash, sameNarrow } from './narrow.js';
import { notifyAbout } from './notify.js';

export const api = createApi();
export const model = signal<Model | null>(null);
export const narrow = signal<Narrow>(hashToNarrow(location.hash));
export const topics = signal<{ streamId: number; names: string[] } | null>(null);
export const status = signal<string>('');

/** The message the keyboard acts on (j/k move it; Enter, r, e and * act on it). */
export const selectedId = signal<number | null>(null);

/**
 * What the compose box is asked to do next: reply to or quote a message, start a new topic in the
 * open stream, or start a direct message. The compose box takes the request and clears it.
 */
export type ComposeIntent =
  | { kind: 'reply'; messageId: number }
  | { kind: 'quote'; messageId: number }
  | { kind: 'new-topic' }
  | { kind: 'new-dm' };
export const composeIntent = signal<ComposeIntent | null>(null);

/** The message being edited inline, if any. */
export const editingId = signal<number | null>(null);

/** Mutations happen in place; a new object tells the views to look again. */
function publish(m: Model): void {
  model.value = { ...m };
}

async function loadNarrow(target: Narrow): Promise<void> {
  const m = model.value;
  if (!m) return;
  // The feed's loader fetches around the first unread message (or a link's message) and keeps the fetched range.
  const near = narrowAnchor(target);
  await openNarrow(target, near === 'newest' ? 'first_unread' : near);
  if (target.kind === 'stream') {
    const { topics: list } = await api.getTopics(target.streamId);
    topics.value = { streamId: target.streamId, names: list.map((t) => t.name) };
  }
}

export function streamName(id: number): string {
  return model.value?.streams.get(id)?.name ?? String(id);
}

export function go(target: Narrow): void {
  const hash = narrowToHash(target, streamName, personName);
  if (location.hash !== hash) location.hash = hash;
  else setNarrow(target);
}

function setNarrow(target: Narrow): void {
  if (!sameNarrow(target, narrow.value)) narrow.value = target;
  void loadNarrow(target).catch((e: Error) => (status.value = e.message));
}

/** Ids of the messages now inside the feed's viewport (kept by the feed's IntersectionObserver). */
export const onScreen = new Set<number>();
let readTimer: ReturnType<typeof setTimeout> | undefined;

/** Unread messages a person can see (on screen, tab visible) become read; the server's event confirms it. */
export function markSeenSoon(): void {
  clearTimeout(readTimer);
  readTimer = setTimeout(() => {
    const m = model.value;
    if (!m || document.visibilityState !== 'visible') return;
    const ids = [...onScreen].filter((id) => m.unread.has(id)).sort((a, b) => a - b);
    if (ids.length === 0) return;
    for (const id of ids) m.unread.delete(id);
    publish(m);
    void api.markRead(ids).catch((e: Error) => (status.value = e.message));
  }, 150);
}

export function visibleMessages(): Message[] {
  return model.value ? messagesIn(model.value, narrow.value) : [];
}

export function start(): void {
  addEventListener('hashchange', () => setNarrow(hashToNarrow(location.hash)));
  addEventListener('visibilitychange', markSeenSoon);
  void runEventLoop(
    {
      register: () =>
        api.register({
          event_types: EVENT_TYPES,
          fetch_event_types: FETCH_TYPES,
          apply_markdown: true,
          client_gravatar: false,
          user_settings_object: true,
          slim_presence: true,
          // Stream typing notifications come only to clients that say they understand them.
          client_capabilities: { notification_settings_null: true, user_settings_object: true, stream_typing_notifications: true },
        }) as never,
      getEvents: (queueId, lastEventId) => api.getEvents(queueId, lastEventId),
    },
    {
      onRegister(state) {
        const m = fromRegister(state);
        queueId = state.queue_id;
        // Messages still being sent stay in the feed across a new queue.
        if (model.value) carryLocalEchoes(model.value, m);
        // Messages already loaded stay; a new queue means events may have been missed, so reload.
        model.value = m;
        status.value = '';
        setNarrow(narrow.value);
      },
      onEvents(events) {
        const m = model.value;
        if (!m) return;
        for (const event of events) applyEvent(m, event);
        notifyAbout(m, events, go);
        for (const listener of eventListeners) listener(events);
        publish(m);
        status.value = '';
      },
      onError(error, failures) {
        status.value = `Connection trouble (${(error as Error).message}); retrying${failures > 1 ? ` (${failures})` : ''}…`;
      },
    },
  );
}

export function personName(id: number): string {
  return model.value?.people.get(id)?.full_name ?? '';
}

/** The event queue's id, sent with each message so that its event names our local echo. */
export let queueId: string | null = null;

/** Views that react to events the model does not keep (typing) listen here. */
export const eventListeners: ((events: ZEvent[]) => void)[] = [];

/** For views that change the model in place (local echo): tell every view to look again. */
export function republish(): void {
  if (model.value) publish(model.value);
}
