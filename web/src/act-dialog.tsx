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
