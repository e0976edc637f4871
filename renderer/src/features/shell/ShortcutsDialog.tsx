import { useEffect, useRef } from 'react';
import { SHORTCUTS } from './shortcuts';

/** `?`: every shortcut, in a modal dialog (Esc or Close shuts it, and the focus goes back where it was). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal?.();
  }, []);
  return (
    <dialog ref={ref} className="shortcuts" aria-label="Keyboard shortcuts" onClose={onClose} onCancel={onClose}>
      <div className="dialog-head">
        <h2>Keyboard shortcuts</h2>
        <button type="button" className="ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="kv shortcut-list">
        {SHORTCUTS.map((s) => (
          <div key={s.keys} className="shortcut">
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.what}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">
        Esc and ? work when no text field has the focus; the Ctrl/Cmd shortcuts work anywhere.
      </p>
    </dialog>
  );
}
