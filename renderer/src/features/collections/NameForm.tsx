import { useState } from 'react';

/** A one-field form for a name: Enter submits, Escape closes; a refusal is shown and what was typed kept. */
export function NameForm(props: {
  label: string;
  initial?: string;
  submit: string;
  onSubmit(name: string): Promise<string | undefined>;
  onClose(): void;
}) {
  const [name, setName] = useState(props.initial ?? '');
  const [error, setError] = useState<string>();
  return (
    <form
      className="name-form row"
      onSubmit={(e) =>
        void (async () => {
          e.preventDefault();
          if (!name.trim()) return setError('A name is required.');
          const failed = await props.onSubmit(name.trim());
          if (failed) return setError(failed);
          props.onClose();
        })()
      }
    >
      <input
        aria-label={props.label}
        autoFocus
        value={name}
        aria-invalid={!!error}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && props.onClose()}
      />
      <button type="submit" className="primary small">
        {props.submit}
      </button>
      <button type="button" className="ghost small" onClick={props.onClose}>
        Cancel
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
