// A modal dialog for the message actions: the browser's own <dialog>, so focus stays inside,
// Escape closes it, and focus returns to what opened it.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import './act.css';

export function ActDialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog ref={ref} class={wide ? 'act-dialog wide' : 'act-dialog'} aria-label={title} onClose={onClose} onCancel={(e) => (e.preventDefault(), onClose())}>
      <h2>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * The end of a dialog or inline form: its error, if any, then the button that leaves (Cancel or
 * Close) and the one that acts, if any.
 */
export function ActButtons({ error, leave, onLeave, children }: { error?: string; leave: 'Cancel' | 'Close'; onLeave: () => void; children?: ComponentChildren }) {
  return (
    <>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="act-buttons">
        <button type="button" onClick={onLeave}>
          {leave}
        </button>
        {children}
      </div>
    </>
  );
}
