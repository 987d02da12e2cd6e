// The keyboard shortcut help panel ("?"): a modal dialog listing every shortcut; Esc or Close shuts it.
import { useEffect, useRef } from 'preact/hooks';
import { helpOpen } from './key-actions.js';
import { SHORTCUT_HELP } from './keys.js';

export function ShortcutsHelp() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog ref={dialog} class="shortcuts" aria-labelledby="shortcuts-title" onClose={() => (helpOpen.value = false)}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {SHORTCUT_HELP.map(({ keys, what }) => (
            <tr key={what}>
              <th scope="row">
                {keys.map((k, i) => (
                  <>
                    {i > 0 && ' or '}
                    <kbd>{k}</kbd>
                  </>
                ))}
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" autofocus>
          Close
        </button>
      </form>
    </dialog>
  );
}
