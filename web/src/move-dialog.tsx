// Moving messages: to another stream and/or topic, choosing which messages of the topic go
// (change_one, change_later, change_all) and whether the old and new threads get a notice.
import { useState } from 'preact/hooks';
import { actorOf, allowedActions } from './act-rules.js';
import { changeMessage, type MessageChange, type PropagateMode } from './act-actions.js';
import { ActButtons, ActDialog } from './act-dialog.js';
import type { Message } from './api.js';
import { PROPAGATE_CHOICES } from './edit-inline.js';
import type { Model } from './model.js';

export function MoveDialog({ msg, m, onClose }: { msg: Message; m: Model; onClose: () => void }) {
  const can = allowedActions(msg, actorOf(m), m.editRules, Date.now() / 1000);
  const [streamId, setStreamId] = useState(msg.stream_id!);
  const [topic, setTopic] = useState(msg.subject);
  const [mode, setMode] = useState<PropagateMode>('change_all');
  const [notifyOld, setNotifyOld] = useState(true);
  const [notifyNew, setNotifyNew] = useState(true);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const streams = [...m.streams.values()].sort((a, b) => a.name.localeCompare(b.name));

  async function move() {
    const change: MessageChange = { propagateMode: mode, notifyOld, notifyNew };
    if (streamId !== msg.stream_id) change.streamId = streamId;
    if (topic.trim() !== msg.subject) change.topic = topic.trim();
    if (change.streamId === undefined && change.topic === undefined) return setError('Choose another stream or topic.');
    setSaving(true);
    try {
      await changeMessage(msg.id, change);
      onClose();
    } catch (e) {
      setError((e as Error).message);
      setSaving(false);
    }
  }

  return (
    <ActDialog title="Move messages" onClose={onClose}>
      <form
        class="act-form"
        onSubmit={(e) => {
          e.preventDefault();
          void move();
        }}
      >
        <label>
          Destination stream
          <select value={String(streamId)} disabled={!can.moveStream} onChange={(e) => setStreamId(Number(e.currentTarget.value))}>
            {streams.map((s) => (
              <option key={s.stream_id} value={String(s.stream_id)}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          New topic
          <input value={topic} maxLength={60} disabled={!can.editTopic} onInput={(e) => setTopic(e.currentTarget.value)} />
        </label>
        <label>
          Messages to move
          <select value={mode} onChange={(e) => setMode(e.currentTarget.value as PropagateMode)}>
            {PROPAGATE_CHOICES.map((c) => (
              <option key={c.mode} value={c.mode}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input type="checkbox" checked={notifyOld} onChange={(e) => setNotifyOld(e.currentTarget.checked)} />
          Send a notice to the old thread
        </label>
        <label class="check">
          <input type="checkbox" checked={notifyNew} onChange={(e) => setNotifyNew(e.currentTarget.checked)} />
          Send a notice to the new thread
        </label>
        <ActButtons error={error} leave="Cancel" onLeave={onClose}>
          <button type="submit" class="primary" disabled={saving}>
            Move
          </button>
        </ActButtons>
      </form>
    </ActDialog>
  );
}
