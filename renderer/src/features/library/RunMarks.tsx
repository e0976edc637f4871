import { useState } from 'react';
import type { HistorySummary } from '../../../../shared/contract';
import { useAppStore } from '../../store';

/** Rename and Pin for the open run: a name is searchable; a pinned run is listed first and outlives Clear. */
export function RunMarks({ run, onError }: { run: HistorySummary; onError: (message?: string) => void }) {
  const renamed = useAppStore((s) => s.historyRunRenamed);
  const pinned = useAppStore((s) => s.historyRunPinned);
  const [naming, setNaming] = useState<string>();

  const save = async () => {
    if (naming === undefined) return;
    const r = await renamed(run.runId, naming.trim());
    onError(r.ok ? undefined : `Could not rename: ${r.error.message}`);
    if (r.ok) setNaming(undefined);
  };
  const pin = async () => {
    const r = await pinned(run.runId, !run.pinned);
    onError(r.ok ? undefined : `Could not ${run.pinned ? 'unpin' : 'pin'}: ${r.error.message}`);
  };

  return (
    <>
      <button type="button" aria-pressed={!!run.pinned} onClick={() => void pin()}>
        {run.pinned ? 'Unpin' : 'Pin'}
      </button>
      {naming === undefined ? (
        <button type="button" onClick={() => setNaming(run.name ?? '')}>
          Rename
        </button>
      ) : (
        <span className="row">
          <input
            aria-label="Run name"
            autoFocus
            maxLength={200}
            value={naming}
            placeholder="a name to find it by"
            onChange={(e) => setNaming(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void save();
              if (e.key === 'Escape') setNaming(undefined);
            }}
          />
          <button type="button" className="primary" onClick={() => void save()}>
            Save name
          </button>
        </span>
      )}
    </>
  );
}
