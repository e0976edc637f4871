import { useState } from 'react';
import { VariableName } from '../../../../shared/contract';

interface Row {
  name: string;
  value: string;
}

/** Checks the rows as the core will: a valid name, each name once. The first problem, in words. */
function problemOf(rows: readonly Row[]): string | undefined {
  const seen = new Set<string>();
  for (const r of rows) {
    if (!r.name && !r.value) continue;
    if (!VariableName.safeParse(r.name).success)
      return `“${r.name || '(empty)'}” is not a variable name: a letter or _, then letters, digits, _, - or .`;
    if (seen.has(r.name)) return `“${r.name}” is there twice.`;
    seen.add(r.name);
  }
  return undefined;
}

/**
 * The dialog "Variables": one scope's `{{name}}` values (a profile's, or a folder's), edited as rows and saved
 * together. Values are not secret: keys belong in the profile, and a key typed here is scrubbed when saved.
 */
export function VariablesDialog(props: {
  scope: string;
  variables: Record<string, string>;
  onSave(variables: Record<string, string>): Promise<string | undefined>;
  onClose(): void;
}) {
  const [rows, setRows] = useState<Row[]>(() => [
    ...Object.entries(props.variables).map(([name, value]) => ({ name, value })),
    { name: '', value: '' },
  ]);
  const [error, setError] = useState<string>();
  const edit = (i: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = async () => {
    const problem = problemOf(rows);
    if (problem) return setError(problem);
    const variables = Object.fromEntries(rows.filter((r) => r.name).map((r) => [r.name, r.value]));
    const failed = await props.onSave(variables);
    if (failed) return setError(failed);
    props.onClose();
  };
  return (
    <div
      className="dialog variables-dialog"
      role="dialog"
      aria-modal="true"
      aria-label="Variables"
      onKeyDown={(e) => e.key === 'Escape' && props.onClose()}
    >
      <h3>Variables · {props.scope}</h3>
      <p className="muted small">
        Write <code>{'{{name}}'}</code> in any field of a request; the value is put in when it is sent. A folder’s value
        wins over the profile’s.
      </p>
      <table className="variables-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              <td>
                <input
                  aria-label={`Variable ${i + 1} name`}
                  value={r.name}
                  autoFocus={i === 0}
                  onChange={(e) => edit(i, { name: e.target.value.trim() })}
                />
              </td>
              <td>
                <input
                  aria-label={`Variable ${i + 1} value`}
                  value={r.value}
                  onChange={(e) => edit(i, { value: e.target.value })}
                />
              </td>
              <td>
                <button
                  type="button"
                  className="ghost small"
                  aria-label={`Remove variable ${i + 1}`}
                  onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => setRows((rs) => [...rs, { name: '', value: '' }])}>
          Add variable
        </button>
        <button type="button" className="primary" onClick={() => void save()}>
          Save variables
        </button>
        <button type="button" className="ghost" onClick={props.onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
