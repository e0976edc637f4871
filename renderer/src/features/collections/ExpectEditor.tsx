import { useState } from 'react';
import type { Expectation } from '../../../../shared/collections/expectations';

const VERDICTS = ['complete', 'truncated', 'error-event', 'http-error', 'network-error', 'timeout'] as const;

/** What a request expects when its collection runs: any of a verdict, a tool call, a text, usage reported. */
export function ExpectEditor(props: {
  name: string;
  expect?: Expectation;
  onSave(expect: Expectation): Promise<string | undefined>;
  onClose(): void;
}) {
  const [e, setE] = useState<Expectation>(props.expect ?? {});
  const [error, setError] = useState<string>();
  const set = (patch: Partial<Expectation>) => setE((x) => ({ ...x, ...patch }));
  return (
    <form
      className="expect-editor"
      aria-label={`Expectations of ${props.name}`}
      onSubmit={(ev) =>
        void (async () => {
          ev.preventDefault();
          const failed = await props.onSave(e);
          if (failed) return setError(failed);
          props.onClose();
        })()
      }
    >
      <label>
        Verdict
        <select
          value={e.verdict ?? ''}
          onChange={(ev) => set({ verdict: (ev.target.value || undefined) as Expectation['verdict'] })}
        >
          <option value="">any</option>
          {VERDICTS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <label>
        Calls the tool
        <input
          value={e.toolCall ?? ''}
          placeholder="tool name"
          onChange={(ev) => set({ toolCall: ev.target.value || undefined })}
        />
      </label>
      <label>
        Reply contains
        <input
          value={e.textIncludes ?? ''}
          placeholder="text"
          onChange={(ev) => set({ textIncludes: ev.target.value || undefined })}
        />
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={!!e.usageReported}
          onChange={(ev) => set({ usageReported: ev.target.checked || undefined })}
        />
        Usage reported
      </label>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      <button type="submit" className="primary small">
        Save expectations
      </button>
      <button type="button" className="ghost small" onClick={props.onClose}>
        Cancel
      </button>
    </form>
  );
}

/** The expectations in a few words, for the request's line: "expects complete · calls get_weather". */
export function expectationWords(e: Expectation | undefined): string | undefined {
  if (!e) return undefined;
  const parts = [
    e.verdict,
    e.toolCall && `calls ${e.toolCall}`,
    e.textIncludes && `says “${e.textIncludes.length > 30 ? `${e.textIncludes.slice(0, 30)}…` : e.textIncludes}”`,
    e.usageReported && 'usage',
  ].filter(Boolean);
  return parts.length ? `expects ${parts.join(' · ')}` : undefined;
}
