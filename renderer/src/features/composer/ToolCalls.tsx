import { useState } from 'react';
import type { PendingToolCall } from '../../../../shared/protocols/compose';

interface Props {
  pending: PendingToolCall[];
  disabled: boolean;
  /** Sends the results, by position; true once a run took them. */
  onSend(outputs: string[]): Promise<boolean>;
}

/** The reply's tool calls, each with a box for its result. Shown only while that reply answers the conversation. */
export function ToolCalls({ pending, disabled, onSend }: Props) {
  // By position, not id: calls may share an id or have none (the fold warns), and each still gets its own box.
  const [outputs, setOutputs] = useState<string[]>([]);
  const send = async () => {
    if (await onSend(outputs)) setOutputs([]);
  };
  return (
    <section className="card tool-results" aria-label="Tool calls">
      <span className="label">
        The model called {pending.length === 1 ? 'a tool' : `${pending.length} tools`}: type each result
      </span>
      {pending.map((c, i) => (
        <label key={`${i}:${c.id}`}>
          <span className="mono small">
            {c.name}({c.argsText}) <span className="muted">id {c.id}</span>
          </span>
          <textarea
            aria-label={
              pending.some((o, j) => j !== i && o.name === c.name)
                ? `Result for ${c.name} (call ${i + 1})`
                : `Result for ${c.name}`
            }
            rows={2}
            value={outputs[i] ?? ''}
            onChange={(e) => {
              const value = e.target.value;
              setOutputs((prev) => Object.assign([...prev], { [i]: value }));
            }}
            onKeyDown={(e) => {
              // Here Ctrl/Cmd+Enter answers the tool calls; the composer's own shortcut would resend the old body.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                e.stopPropagation();
                void send();
              }
            }}
          />
        </label>
      ))}
      <button type="button" className="primary" disabled={disabled} onClick={() => void send()}>
        Send tool results
      </button>
    </section>
  );
}
