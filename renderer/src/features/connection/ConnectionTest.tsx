import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ProfileInput, ProfileTestResult } from '../../../../shared/contract';
import { useAppStore } from '../../store';

const HEADER_WORDS = { 'x-api-key': 'x-api-key', authorization: 'Authorization: Bearer', none: 'no key' } as const;

/** What Test connection tests: a saved profile as saved, or the form as typed (profiles:test). */
export type TestSubject = { id: string } | { draft: ProfileInput };

/**
 * Test connection: lists the models and says status, latency and which auth header the gateway took
 * (profiles:test). It tests the form as typed, saved or not; the core sends the stored key only to the host it
 * was saved for. `formVersion` changes with every edit: a result is about the form it was asked for, so an
 * edit clears it. The button goes in the dialog's actions, the result above them.
 */
export function useConnectionTest(
  subject: () => TestSubject,
  formVersion: string,
  note?: string,
): { button: ReactNode; result: ReactNode } {
  const connectionTestRequested = useAppStore((s) => s.connectionTestRequested);
  const [state, setState] = useState<{ for: string; busy?: boolean; result?: ProfileTestResult; error?: string }>();
  const shown = state?.for === formVersion ? state : undefined;
  const region = useRef<HTMLDivElement>(null);
  // In braces: a browser's scrollIntoView may return a promise, which React would take for a cleanup function.
  useEffect(() => {
    region.current?.scrollIntoView?.({ block: 'nearest' });
  }, [shown?.result, shown?.error]);

  const run = async () => {
    const version = formVersion;
    setState({ for: version, busy: true });
    const r = await connectionTestRequested(subject());
    setState(r.ok ? { for: version, result: r.value } : { for: version, error: r.error.message });
  };

  const button = (
    <button type="button" disabled={shown?.busy} title={note} onClick={() => void run()}>
      {shown?.busy ? 'Testing…' : 'Test connection'}
    </button>
  );
  const result = (shown?.result || shown?.error) && (
    <div
      ref={region}
      role="region"
      aria-label="Connection test"
      aria-live="polite"
      className={`connection-test ${shown.result?.ok ? 'ok' : 'bad'}`}
    >
      <p>{shown.error ?? shown.result?.summary}</p>
      {shown.result && shown.result.attempts.length > 0 && (
        <ul>
          {shown.result.attempts.map((a) => (
            <li key={a.header}>
              {HEADER_WORDS[a.header]}: {a.ok ? 'accepted' : 'refused'} ({a.status ? `HTTP ${a.status}` : 'no answer'},{' '}
              {a.latencyMs} ms)
              {a.message ? ` — ${a.message}` : ''}
            </li>
          ))}
        </ul>
      )}
      {shown.result && shown.result.models.length > 0 && (
        <p className="muted mono">
          {shown.result.models.join(', ')}
          {shown.result.modelCount > shown.result.models.length
            ? ` and ${shown.result.modelCount - shown.result.models.length} more`
            : ''}
        </p>
      )}
    </div>
  );
  return { button, result };
}
