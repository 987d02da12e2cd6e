// The compose box's smaller views: a local echo's status (in the feed), who is typing, the drafts
// list and the Markdown preview.
import { signal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { Message } from './api.js';
import { discardSend, retrySend } from './compose-send.js';
import { type TypingTarget, TypingWatcher, typingText } from './compose-typing.js';
import type { DraftDict, Model } from './model.js';
import { eventListeners, model, streamName } from './store.js';

/** "Sending…", or "Not sent" with Retry and Discard, under a local echo in the feed. */
export function EchoStatus({ msg }: { msg: Message }) {
  const local = msg.local!;
  if (local.state === 'sending') return <span class="echo-status sending">Sending…</span>;
  return (
    <span class="echo-status failed" role="alert">
      Not sent{local.error ? `: ${local.error}` : ''}.{' '}
      <button type="button" onClick={() => void retrySend(local.localId)}>
        Retry
      </button>{' '}
      <button type="button" onClick={() => discardSend(local.localId)}>
        Discard
      </button>
    </span>
  );
}

const typingChanged = signal(0);
export const typingWatcher = new TypingWatcher(
  () => model.value?.me.user_id ?? 0,
  () => model.value?.typing.startedExpiry ?? 15_000,
  () => (typingChanged.value += 1),
);
eventListeners.push((events) => {
  for (const event of events) {
    if (event.type === 'typing') typingWatcher.event(event as never);
    // A message from a typist ends their typing in that conversation.
    if (event.type === 'message') {
      const msg = event.message as Message;
      const others = Array.isArray(msg.display_recipient) ? msg.display_recipient.map((p) => p.id) : [];
      const target: TypingTarget = msg.type === 'stream' ? { kind: 'stream', streamId: msg.stream_id!, topic: msg.subject } : { kind: 'direct', userIds: others };
      typingWatcher.forgetIn(target, msg.sender_id);
    }
  }
});

/** Who is typing in the conversations shown: those matching `shows` (the open narrow or the compose recipient). */
export function TypingNotice({ m, shows }: { m: Model; shows: (t: TypingTarget) => boolean }) {
  void typingChanged.value;
  const ids = new Set(typingWatcher.all().filter((e) => shows(e.target)).flatMap((e) => e.userIds));
  const text = typingText([...ids].map((id) => m.people.get(id)?.full_name ?? 'Someone'));
  return (
    <p class="typing" aria-live="polite">
      {text}
    </p>
  );
}

function draftLabel(d: DraftDict, m: Model): string {
  if (d.type === 'stream') return `#${streamName(d.to[0]!)} › ${d.topic || '(no topic)'}`;
  return d.to.map((id) => m.people.get(id)?.full_name ?? String(id)).join(', ') || 'Direct message';
}

/** The saved drafts, newest first; picking one reopens it in the compose box. */
export function DraftsList({ m, open }: { m: Model; open: (d: DraftDict) => void }) {
  const details = useRef<HTMLDetailsElement>(null);
  const drafts = [...m.drafts.values()].sort((a, b) => b.timestamp - a.timestamp);
  if (drafts.length === 0) return null;
  const close = () => details.current?.removeAttribute('open');
  return (
    <details
      class="drafts"
      ref={details}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !details.current?.open) return;
        e.stopPropagation();
        close();
        details.current.querySelector('summary')?.focus();
      }}
    >
      <summary>Drafts ({drafts.length})</summary>
      <ul aria-label="Drafts">
        {drafts.map((d) => (
          <li key={d.id}>
            <button
              type="button"
              onClick={() => {
                close();
                open(d);
              }}
            >
              <strong>{draftLabel(d, m)}</strong> <span>{d.content.slice(0, 80)}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
