// The message actions' parts of a message, so message.tsx needs only two lines: in the header the
// EDITED/MOVED and starred marks and the tools; below it the content (or the inline editor in its
// place) and the reactions.
import type { ComponentChildren } from 'preact';
import { editMark } from './act-rules.js';
import type { Message } from './api.js';
import { EditInline } from './edit-inline.js';
import { MessageTools } from './message-actions.js';
import { Reactions } from './reactions.js';
import { editingId, model } from './store.js';
import './act.css';

export function ActHeader({ msg }: { msg: Message }) {
  const m = model.value;
  const mark = editMark(msg);
  return (
    <>
      {mark && (
        <span class="edit-mark" title={mark === 'EDITED' ? 'This message was edited' : 'This message was moved'}>
          {mark}
        </span>
      )}
      {msg.flags.includes('starred') && (
        <span class="starred-mark" role="img" aria-label="Starred" title="Starred">
          ★
        </span>
      )}
      {/* A local echo is not on the server yet: nothing can be done to it but retry or discard. */}
      {m && !msg.local && <MessageTools msg={msg} m={m} />}
    </>
  );
}

export function ActBody({ msg, children }: { msg: Message; children: ComponentChildren }) {
  const m = model.value;
  if (!m || msg.local) return <>{children}</>;
  return (
    <>
      {/* The content stays mounted while it is edited, so what message.tsx did to it stays done. */}
      <div class="content-wrap" hidden={editingId.value === msg.id}>
        {children}
      </div>
      {editingId.value === msg.id && <EditInline msg={msg} m={m} />}
      <Reactions msg={msg} m={m} />
    </>
  );
}
