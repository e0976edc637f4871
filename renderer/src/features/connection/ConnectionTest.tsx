import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ProfileTestResult } from '../../../../shared/contract';
import { useAppStore } from '../../store';

const HEADER_WORDS = { 'x-api-key': 'x-api-key', authorization: 'Authorization: Bearer', none: 'no key' } as const;

/**
 * Test connection: lists the models with the profile as saved and says status, latency and which auth header
 * the gateway took (profiles:test). A draft with unsaved changes is not what would be tested, so it waits.
 * The button goes in the dialog's actions, the result above them.
 */
export function useConnectionTest(
  profileId: string | undefined,
  unsaved: boolean,
): { button: ReactNode; result: ReactNode } {
  const connectionTestRequested = useAppStore((s) => s.connectionTestRequested);
  const [state, setState] = useState<{ for: string; busy?: boolean; result?: ProfileTestResult; error?: string }>();
  const shown = profileId !== undefined && state?.for === profileId ? state : undefined;
  const region = useRef<HTMLDivElement>(null);
  // In braces: a browser's scrollIntoView may return a promise, which React would take for a cleanup function.
  useEffect(() => {
    region.current?.scrollIntoView?.({ block: 'nearest' });
  }, [shown?.result, shown?.error]);

  const run = async () => {
    if (profileId === undefined) return;
    setState({ for: profileId, busy: true });
    const r = await connectionTestRequested(profileId);
    setState(r.ok ? { for: profileId, result: r.value } : { for: profileId, error: r.error.message });
  };

  if (profileId === undefined) return { button: null, result: null };
  const button = (
    <button
      type="button"
      disabled={unsaved || shown?.busy}
      title={unsaved ? 'Save the profile first: the test uses it as saved' : undefined}
      onClick={() => void run()}
    >
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
