// The top bar's "Invite people" button, for those who may create invitation links (the
// organization's administrators). The dialog is loaded the first time it opens.
import { signal } from '@preact/signals';
import type { FunctionComponent } from 'preact';
import { useState } from 'preact/hooks';
import type { InviteDialogProps } from './invite-dialog.js';
import { canCreateInviteLinks } from './invite-rules.js';
import type { Model } from './model.js';
import { status } from './store.js';
import './invite-button.css';

const Dialog = signal<FunctionComponent<InviteDialogProps> | null>(null);

export function InviteButton({ m }: { m: Model }) {
  const [open, setOpen] = useState(false);
  if (!canCreateInviteLinks(m.myRole)) return null;
  const show = () => {
    if (!Dialog.value) {
      import('./invite-dialog.js').then(
        (module) => (Dialog.value = module.InviteDialog),
        (e: Error) => (status.value = e.message),
      );
    }
    setOpen(true);
  };
  const Opened = open ? Dialog.value : null;
  return (
    <>
      {/* On narrow screens the button shrinks to a "+", leaving the search its room; its name stays. */}
      <button type="button" class="invite-open" aria-label="Invite people" title="Invite people" aria-haspopup="dialog" onClick={show}>
        <span class="wide-only">Invite people</span>
        <span class="narrow-only" aria-hidden="true">
          +
        </span>
      </button>
      {Opened && <Opened m={m} onClose={() => setOpen(false)} />}
    </>
  );
}
