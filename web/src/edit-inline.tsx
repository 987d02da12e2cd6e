// Editing a message in place: its content (as written, in Markdown) when I may edit it, and for
// stream messages its topic, with which messages a new topic applies to. Enter saves (Shift+Enter
// for a new line), Escape cancels.
import { ActButtons } from './act-dialog.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { actorOf, allowedActions } from './act-rules.js';
import { changeMessage, type MessageChange, type PropagateMode, rawContent } from './act-actions.js';
import type { Message } from './api.js';
import type { Model } from './model.js';
import { editingId } from './store.js';
import './act.css';

export const PROPAGATE_CHOICES: { mode: PropagateMode; label: string }[] = [
  { mode: 'change_one', label: 'Only this message' },
  { mode: 'change_later', label: 'This and all later messages in the topic' },
  { mode: 'change_all', label: 'All messages in the topic' },
];

export function EditInline({ msg, m }: { msg: Message; m: Model }) {
  const can = allowedActions(msg, actorOf(m), m.editRules, Date.now() / 1000);
  const [content, setContent] = useState<string | null>(can.editContent ? null : '');
  const [topic, setTopic] = useState(msg.subject);
  const [mode, setMode] = useState<PropagateMode>('change_later');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const original = useRef('');
  const first = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  useEffect(() => {
    if (!can.editContent) return;
    rawContent(msg.id).then(
      (raw) => {
        original.current = raw;
        setContent(raw);
      },
      (e: Error) => setError(e.message),
    );
  }, [msg.id]);
  const form = useRef<HTMLFormElement>(null);
  // Focus the content once it has loaded, unless the person is already typing in the topic.
  useEffect(() => {
    if (!form.current?.contains(document.activeElement)) first.current?.focus();
  }, [content === null]);
  const close = () => (editingId.value = null);

  async function save() {
    const change: MessageChange = {};
    if (can.editContent && content !== null && content !== original.current) change.content = content;
    if (can.editTopic && topic.trim() !== msg.subject) Object.assign(change, { topic: topic.trim(), propagateMode: mode });
    if (Object.keys(change).length === 0) return close();
    setSaving(true);
    try {
      await changeMessage(msg.id, change);
      close();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  }

  const keys = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void save();
    }
  };
  const topicChanged = topic.trim() !== msg.subject;
  if (!can.editContent && !can.editTopic) {
    return (
      <div class="edit-inline" role="alert">
        <p>You can no longer edit this message.</p>
        <ActButtons leave="Close" onLeave={close} />
      </div>
    );
  }
  return (
    <form
      ref={form}
      class="edit-inline"
      aria-label="Edit message"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {can.editTopic && (
        <div class="edit-topic-row">
          <label>
            Edit topic
            <input ref={can.editContent ? undefined : first} value={topic} maxLength={60} onInput={(e) => setTopic(e.currentTarget.value)} onKeyDown={keys} />
          </label>
          {topicChanged && (
            <label>
              Apply to
              <select value={mode} onChange={(e) => setMode(e.currentTarget.value as PropagateMode)}>
                {PROPAGATE_CHOICES.map((c) => (
                  <option key={c.mode} value={c.mode}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
      )}
      {can.editContent && (
        <label class="edit-content">
          <span class="visually-hidden">Edit message content</span>
          {content === null ? (
            <p>Loading…</p>
          ) : (
            <textarea ref={first} value={content} rows={Math.min(12, content.split('\n').length + 1)} onInput={(e) => setContent(e.currentTarget.value)} onKeyDown={keys} />
          )}
        </label>
      )}
      <ActButtons error={error} leave="Cancel" onLeave={close}>
        <button type="submit" class="primary" disabled={saving || (can.editContent && content === null)}>
          Save
        </button>
      </ActButtons>
    </form>
  );
}
