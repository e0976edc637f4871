import { useCallback, useState } from 'react';
import type { Ledger } from '../../../../shared/contract';
import { useAppStore } from '../../store';

/**
 * Retry for a composer's run: the request exactly as the ledger recorded it, to the same profile, as that
 * composer's next run. `error` says why a retry could not start (the composer's own Send shows its errors).
 */
export function useRetry(): { retry: (ledger: Ledger) => void; error?: string } {
  const [error, setError] = useState<string>();
  const retry = useCallback((ledger: Ledger) => {
    const s = useAppStore.getState();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(ledger.body) as Record<string, unknown>;
    } catch {
      return setError('The recorded body is not JSON: it cannot be sent again as it was.');
    }
    setError(undefined);
    void s
      .runStartRequested({
        profileId: ledger.profileId,
        protocol: ledger.protocol,
        body,
        warnings: ledger.warnings,
        origin: 'composer',
      })
      .then((r) => {
        if (r.error) setError(`Could not retry: ${r.error.message}`);
        else if (r.runId) useAppStore.getState().composerRunStarted(ledger.protocol, r.runId);
      });
  }, []);
  return { retry, error };
}
