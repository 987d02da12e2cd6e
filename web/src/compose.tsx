// The compose box: a stream message (stream, topic) or a direct message (to), Enter sends.
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { isSendKey, sendParams, type Draft } from './compose-rules.js';
import type { Model } from './model.js';
import { api, composeIntent, narrow } from './store.js';

function draftFor(m: Model): Draft {
  const n = narrow.value;
  const first = [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name))[0];
  return {
    mode: n.kind === 'dm' ? 'dm' : 'stream',
    streamId: n.kind === 'stream' ? n.streamId : first?.stream_id,
    topic: n.kind === 'stream' ? (n.topic ?? '') : '',
    to: '',
    content: '',
  };
}

export function Compose({ m }: { m: Model }) {
  const [draft, setDraft] = useState<Draft>(() => draftFor(m));
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);
  // A new narrow sets the recipient; what is being written stays.
  useEffect(() => setDraft((d) => ({ ...draftFor(m), content: d.content, to: d.to })), [narrow.value]);
  const update = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  // A reply asked for by the keyboard (r, Enter): the selected message's conversation, then write.
  useEffect(() => {
    const intent = composeIntent.value;
    const msg = intent?.kind === 'reply' ? m.messages.get(intent.messageId) : undefined;
    if (!msg) return;
    composeIntent.value = null;
    if (msg.type === 'stream') update({ mode: 'stream', streamId: msg.stream_id, topic: msg.subject });
    else if (Array.isArray(msg.display_recipient)) update({ mode: 'dm', to: msg.display_recipient.filter((p) => p.id !== m.me.user_id).map((p) => p.email).join(', ') });
    setTimeout(() => document.getElementById('compose-message')?.focus());
  }, [composeIntent.value]);

  async function send() {
    const result = sendParams(draft, m.people.values());
    if ('error' in result) return setError(result.error);
    setSending(true);
    try {
      await api.sendMessage(result.params);
      setError('');
      update({ content: '' });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSending(false);
    }
  }

  const streams = [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <form
      class="compose"
      aria-label="Compose"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <div class="recipient-row">
        <button type="button" class="mode" onClick={() => update({ mode: draft.mode === 'dm' ? 'stream' : 'dm' })}>
          {draft.mode === 'dm' ? 'Stream message instead' : 'Direct message instead'}
        </button>
        {/* Keyed, so that switching never reuses the topic's input (and its maxlength) for "To". */}
        {draft.mode === 'stream' ? (
          <Fragment key="stream">
            <label for="compose-stream">Stream</label>
            <select id="compose-stream" value={String(draft.streamId ?? '')} onChange={(e) => update({ streamId: Number(e.currentTarget.value) })}>
                {streams.map((s) => (
                  <option key={s.stream_id} value={String(s.stream_id)}>
                    {s.name}
                  </option>
                ))}
            </select>
            <label for="compose-topic">Topic</label>
            <input id="compose-topic" value={draft.topic} onInput={(e) => update({ topic: e.currentTarget.value })} maxLength={60} />
          </Fragment>
        ) : (
          <Fragment key="dm">
            <label for="compose-to">To</label>
            <input id="compose-to" value={draft.to} placeholder="Emails or names, separated by commas" onInput={(e) => update({ to: e.currentTarget.value })} />
          </Fragment>
        )}
      </div>
      <label for="compose-message" class="message-label">
        Message
      </label>
      <textarea
        id="compose-message"
          value={draft.content}
          rows={3}
          onInput={(e) => update({ content: e.currentTarget.value })}
          onKeyDown={(e) => {
            if (!isSendKey(e)) return;
            e.preventDefault();
            void send();
          }}
      />
      {error && <p role="alert" class="error">{error}</p>}
      <button type="submit" disabled={sending}>
        Send
      </button>
    </form>
  );
}
