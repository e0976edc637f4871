import { useEffect, useMemo, useState } from 'react';
import { diffLines, diffWords } from 'diff';
import type { RecordedRun } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { textOf } from '../compare/column-body';
import { DiffSides as Sides } from '../../lib/DiffSides';

/** The request as it went out, headers aside: method, URL and the body pretty-printed, so a diff reads by line. */
function requestText(run: RecordedRun): string {
  let body = run.ledger.body;
  try {
    body = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // Not JSON: shown as recorded.
  }
  return `${run.ledger.method} ${run.ledger.url}\n\n${body}\n`;
}

const title = (run: RecordedRun) =>
  `${run.ledger.model ?? '?'} · ${new Date(run.ledger.startedAt).toLocaleTimeString()} · ${run.result.verdict}`;

/** Diff in History: two recorded runs' requests line by line and their outputs word by word, side by side. */
export function RunDiff({ runIds, onClose }: { runIds: [string, string]; onClose: () => void }) {
  const historyRunRequested = useAppStore((s) => s.historyRunRequested);
  const [runs, setRuns] = useState<{ ids: string; pair?: [RecordedRun, RecordedRun]; error?: string }>();
  const ids = runIds.join(' ');
  useEffect(() => {
    let live = true;
    void (async () => {
      const [a, b] = await Promise.all(ids.split(' ').map((id) => historyRunRequested(id)));
      if (!live) return;
      if (!a.ok) setRuns({ ids, error: a.error.message });
      else if (!b.ok) setRuns({ ids, error: b.error.message });
      else setRuns({ ids, pair: [a.value, b.value] });
    })();
    return () => {
      live = false;
    };
  }, [ids, historyRunRequested]);
  const pair = runs?.ids === ids ? runs.pair : undefined;
  const parts = useMemo(
    () =>
      pair && {
        request: diffLines(requestText(pair[0]), requestText(pair[1])),
        output: diffWords(textOf(pair[0].result.transcript), textOf(pair[1].result.transcript)),
      },
    [pair],
  );
  return (
    <section className="run-diff" aria-label="Diff">
      <div className="row">
        <strong>Diff</strong>
        {pair && (
          <span className="muted small">
            {title(pair[0])} → {title(pair[1])}
          </span>
        )}
        <button type="button" className="ghost" onClick={onClose}>
          Close diff
        </button>
      </div>
      {runs?.error && <p className="field-error">Could not read a run: {runs.error}</p>}
      {parts ? (
        <>
          <h3 className="label">Request</h3>
          <Sides parts={parts.request} label="Request diff" />
          <h3 className="label">Output</h3>
          <Sides parts={parts.output} label="Output diff" />
        </>
      ) : (
        !runs?.error && <p className="muted small">Reading both runs…</p>
      )}
    </section>
  );
}
