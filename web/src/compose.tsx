// The compose box: a stream message (stream, topic) or a direct message (to), with suggestions,
// a Markdown preview, typing notifications, drafts saved as one writes, and local echo on send.
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import './compose.css';
import { DraftSaver, draftFor } from './compose-drafts.js';
import { DraftsList, TypingNotice } from './compose-parts.js';
import { apiDraft, type Draft, fromApiDraft, insertAtCaret, isSendKey, messageLink, planIntent, quoteBlock, type Recipient, recipientKeyOf, recipientsOf, sendParams } from './compose-rules.js';
import { sendWithEcho } from './compose-send.js';
import { useSuggest } from './compose-suggest-view.js';
import { conversationKey, type TypingTarget, TypingSender, typingParams } from './compose-typing.js';
import type { Message } from './api.js';
import type { Model } from './model.js';
import type { Narrow } from './narrow.js';
import { api, composeIntent, model, narrow, streamName } from './store.js';

type Focus = 'topic' | 'to' | 'message';

const saver = new DraftSaver(api, () => model.value, (message) => console.warn('Draft not saved:', message));
const typing = new TypingSender(
  () => model.value!.typing,
  (op, target) => void api.call('POST', '/typing', typingParams(op, target)).catch(() => undefined),
);
addEventListener('pagehide', () => void saver.flush());

function firstStream(m: Model): number | undefined {
  return [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name))[0]?.stream_id;
}

/** Where the open narrow sends, or null when it names no recipient (the box keeps its own). */
function narrowRecipient(n: Narrow): Recipient | null {
  if (n.kind === 'stream') return { mode: 'stream', streamId: n.streamId, topic: n.topic ?? '', to: '' };
  // A conversation's narrow writes to its people (the others; yourself alone when it is your own).
  if (n.kind === 'dm' && n.userIds && n.userIds.length > 0) {
    const m = model.value;
    const me = m?.me.user_id;
    const others = n.userIds.filter((id) => id !== me);
    const emails = (others.length > 0 ? others : n.userIds).map((id) => m?.people.get(id)?.email).filter(Boolean);
    if (emails.length > 0) return { mode: 'dm', streamId: undefined, topic: '', to: emails.join(', ') };
  }
  return null;
}

function typingTarget(d: Draft, m: Model): TypingTarget | null {
  if (d.mode === 'stream') return d.streamId === undefined ? null : { kind: 'stream', streamId: d.streamId, topic: d.topic };
  const people = recipientsOf(d.to, m.people.values());
  const ids = people?.map((p) => p.user_id).filter((id) => id !== m.me.user_id);
  return ids && ids.length > 0 ? { kind: 'direct', userIds: ids } : null;
}

/** Whether a conversation someone types in is the one shown (the open narrow or the compose recipient). */
function shownTarget(t: TypingTarget, n: Narrow, own: TypingTarget | null, me: number): boolean {
  if (own && conversationKey(own, me) === conversationKey(t, me)) return true;
  if (t.kind === 'stream') return n.kind === 'stream' && n.streamId === t.streamId && (n.topic === undefined || n.topic.toLowerCase() === t.topic.toLowerCase());
  return n.kind === 'dm';
}

export function Compose({ m }: { m: Model }) {
  const [draft, setDraft] = useState<Draft>(() => ({ mode: 'stream', streamId: firstStream(m), topic: '', to: '', content: '', ...narrowRecipient(narrow.value) }));
  const [error, setError] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [focus, setFocus] = useState<Focus | null>(null);
  const topicRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const update = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const people = () => m.people.values();

  /** Opens a recipient from outside (narrow, reply, drafts list): what was written is kept as a draft, the recipient's own draft comes back. */
  function openRecipient(next: Recipient, focusOn: Focus | null, reopen?: { content: string; draftId: number | undefined }) {
    const key = recipientKeyOf({ ...next, content: '' }, people(), m.me.user_id);
    if (!reopen && draft.content !== '' && key !== null && key === recipientKeyOf(draft, people(), m.me.user_id)) {
      // The conversation being written to already: what is written stays as it is.
      setDraft((d) => ({ ...d, ...next }));
      return setFocus(focusOn);
    }
    const saved = reopen === undefined && key ? draftFor(m, key) : undefined;
    typing.stop();
    saver.begin(reopen ? reopen.draftId : saved?.id);
    setDraft({ ...next, content: reopen?.content ?? saved?.content ?? '' });
    setError('');
    setFocus(focusOn);
  }

  useEffect(() => {
    const n = narrow.value;
    const next = narrowRecipient(n);
    if (next) {
      // Opening the stream the box writes to keeps its topic.
      if (n.kind === 'stream' && n.topic === undefined && draft.mode === 'stream' && draft.streamId === n.streamId) return;
      openRecipient(next, null);
    } else if (draft.content === '') openRecipient(draft, null);
  }, [narrow.value]);

  // Save as one writes (debounced by the saver).
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) return void (firstRender.current = false);
    saver.changed(apiDraft(draft, people(), m.me.user_id, Date.now()));
  }, [draft]);

  useEffect(() => {
    const el = focus === 'topic' ? topicRef.current : focus === 'to' ? toRef.current : focus === 'message' ? messageRef.current : null;
    if (!el) return;
    el.focus();
    if (focus === 'message') el.setSelectionRange(el.value.length, el.value.length);
    setFocus(null);
  }, [focus]);

  // Requests from elsewhere (keyboard, message actions): take them, then clear them.
  useEffect(() => {
    const intent = composeIntent.value;
    if (!intent) return;
    composeIntent.value = null;
    const plan = planIntent(intent, draft, {
      me: m.me.user_id,
      message: 'messageId' in intent ? m.messages.get(intent.messageId) : undefined,
      narrowStream: narrow.value.kind === 'stream' ? narrow.value.streamId : undefined,
      fallbackStream: firstStream(m),
    });
    if (!plan) return;
    if (plan.quote) void quote(plan.quote, plan.recipient);
    else openRecipient(plan.recipient, plan.focus);
  }, [composeIntent.value]);

  async function quote(message: Message, recipient: Recipient) {
    try {
      const { message: raw } = await api.call<{ message: { content: string } }>('GET', `/messages/${message.id}`, { apply_markdown: false });
      const block = quoteBlock({ full_name: message.sender_full_name, user_id: message.sender_id }, messageLink(location.origin, message, streamName), raw.content);
      const key = recipientKeyOf({ ...recipient, content: '' }, people(), m.me.user_id);
      if (key !== null && key === recipientKeyOf(draft, people(), m.me.user_id)) {
        // Same conversation: the quote goes where the caret is, in what is being written.
        const caret = messageRef.current?.selectionEnd ?? draft.content.length;
        update({ content: insertAtCaret(draft.content, caret, block).text });
        return setFocus('message');
      }
      const saved = key === null ? undefined : draftFor(m, key);
      const base = saved?.content ?? '';
      openRecipient(recipient, 'message', { content: insertAtCaret(base, base.length, block).text, draftId: saved?.id });
    } catch (e) {
      setError((e as Error).message);
    }
  }

  // Re-render the preview as the text changes while it is shown.
  useEffect(() => {
    if (preview === null) return;
    const timer = setTimeout(() => void renderPreview(), 300);
    return () => clearTimeout(timer);
  }, [draft.content]);

  async function renderPreview() {
    if (draft.content.trim() === '') return setPreview('<p><em>Nothing to preview</em></p>');
    try {
      setPreview((await api.call<{ rendered: string }>('POST', '/messages/render', { content: draft.content })).rendered);
    } catch (e) {
      setError((e as Error).message);
    }
  }

  /** Stream or direct message: what is written stays, now for the other kind of recipient. */
  function switchMode() {
    typing.stop();
    update({ mode: draft.mode === 'dm' ? 'stream' : 'dm' });
    setFocus(draft.mode === 'dm' ? 'topic' : 'to');
  }

  function send() {
    const result = sendParams(draft, people());
    if ('error' in result) return setError(result.error);
    const recipients = draft.mode === 'dm' ? (recipientsOf(draft.to, people()) ?? []) : [];
    typing.stop();
    void saver.sent();
    setError('');
    update({ content: '' });
    if (preview !== null) setPreview('<p><em>Nothing to preview</em></p>');
    // The failure shows on the message itself, in the feed, with Retry.
    void sendWithEcho(result.params, draft.content, recipients);
  }

  const toSuggest = useSuggest('compose-to-suggestions', 'to', draft.to, (to) => update({ to }), toRef, m);
  const messageSuggest = useSuggest('compose-message-suggestions', 'message', draft.content, (content) => update({ content }), messageRef, m);
  const own = typingTarget(draft, m);
  const streams = [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <form
      class="compose"
      aria-label="Compose"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <TypingNotice m={m} shows={(t) => shownTarget(t, narrow.value, own, m.me.user_id)} />
      <div class="recipient-row">
        <button type="button" class="mode" onClick={() => switchMode()}>
          {draft.mode === 'dm' ? 'Stream message instead' : 'Direct message instead'}
        </button>
        {/* Keyed, so that switching never reuses the topic's input (and its maxlength) for "To". */}
        {draft.mode === 'stream' ? (
          <Fragment key="stream">
            <label for="compose-stream">Stream</label>
            <select id="compose-stream" value={String(draft.streamId ?? '')} onChange={(e) => openRecipient({ ...draft, streamId: Number(e.currentTarget.value) }, 'topic')}>
              {streams.map((s) => (
                <option key={s.stream_id} value={String(s.stream_id)}>
                  {s.name}
                </option>
              ))}
            </select>
            <label for="compose-topic">Topic</label>
            <input id="compose-topic" ref={topicRef} value={draft.topic} onInput={(e) => update({ topic: e.currentTarget.value })} maxLength={60} />
          </Fragment>
        ) : (
          <Fragment key="dm">
            <label for="compose-to">To</label>
            <span class="suggest-anchor">
              <input
                id="compose-to"
                ref={toRef}
                value={draft.to}
                autoComplete="off"
                placeholder="Emails or names, separated by commas"
                {...toSuggest.fieldProps}
                onInput={(e) => {
                  update({ to: e.currentTarget.value });
                  toSuggest.track(e.currentTarget);
                }}
                onKeyUp={(e) => toSuggest.track(e.currentTarget)}
                onClick={(e) => toSuggest.track(e.currentTarget)}
                onKeyDown={(e) => toSuggest.onKeyDown(e)}
              />
              {toSuggest.list}
            </span>
          </Fragment>
        )}
        <DraftsList m={m} open={(d) => openRecipient(fromApiDraft(d, m.people), 'message', { content: d.content, draftId: d.id })} />
      </div>
      <label for="compose-message" class="message-label">
        Message
      </label>
      {preview !== null && <div class="preview content" role="region" aria-label="Preview" dangerouslySetInnerHTML={{ __html: preview }} />}
      <div class="suggest-anchor">
        <textarea
          id="compose-message"
          ref={messageRef}
          value={draft.content}
          rows={3}
          {...messageSuggest.fieldProps}
          onInput={(e) => {
            const content = e.currentTarget.value;
            update({ content });
            messageSuggest.track(e.currentTarget);
            const target = typingTarget({ ...draft, content }, m);
            if (content === '' || !target) typing.stop();
            else typing.typed(target);
          }}
          onKeyUp={(e) => messageSuggest.track(e.currentTarget)}
          onClick={(e) => messageSuggest.track(e.currentTarget)}
          onKeyDown={(e) => {
            if (messageSuggest.onKeyDown(e)) return;
            if (!isSendKey(e, m.enterSends)) return;
            e.preventDefault();
            send();
          }}
        />
        {messageSuggest.list}
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="compose-actions">
        <span class="hint">{m.enterSends ? 'Enter to send, Shift+Enter for a new line' : 'Shift+Enter or Ctrl+Enter to send'}</span>
        <button
          type="button"
          class="preview-toggle"
          aria-pressed={preview !== null}
          onClick={() => {
            if (preview !== null) return setPreview(null);
            setPreview('<p><em>Rendering…</em></p>');
            void renderPreview();
          }}
        >
          Preview
        </button>
        <button type="submit" class="send">
          Send
        </button>
      </div>
    </form>
  );
}
