import { CAPABILITY_INFO, formatAge, type CapabilityId } from '../../../../shared/capabilities';
import type { CapabilityResultView } from '../../../../shared/contract';
import { PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import { StreamViewer } from '../stream-viewer/StreamViewer';

export interface Cell {
  model: string;
  protocol: ProtocolId;
  capability: CapabilityId;
}

interface CellEvidenceProps {
  cell: Cell;
  result?: CapabilityResultView;
  /** The evidence run open in the viewer below, if any. */
  evidenceRun?: string;
  busy: boolean;
  now: number;
  onOpenRun: (runId: string) => void;
  onProbe: () => void;
  onClose: () => void;
}

/** What a cell's result rests on: the verdict, its evidence in full (wrapped, never clipped) and its runs. */
function Evidence(props: { result: CapabilityResultView; now: number; onOpenRun: (id: string) => void }) {
  const { result, now, onOpenRun } = props;
  const runIds = result.evidence.runIds;
  return (
    <>
      <p>
        <span className={`badge outcome ${result.outcome}`}>{result.outcome}</span> {result.message}
      </p>
      <p className="muted small">
        {new Date(result.at).toLocaleString()} ({formatAge(now - Date.parse(result.at))} ago) · {result.attempts}{' '}
        attempt(s)
        {result.status ? ` · HTTP ${result.status}` : ''}
      </p>
      <p>{result.evidence.explanation}</p>
      {result.evidence.text && (
        <pre className="mono evidence-text" aria-label="Evidence text" tabIndex={0}>
          {result.evidence.text}
        </pre>
      )}
      <details>
        <summary>Evidence fields</summary>
        <pre className="mono evidence-fields">{JSON.stringify(result.evidence.fields, null, 2)}</pre>
      </details>
      <div className="row wrap">
        {runIds.map((id, i) => (
          <button key={id} type="button" onClick={() => onOpenRun(id)}>
            Open evidence run {runIds.length > 1 ? i + 1 : ''}
          </button>
        ))}
      </div>
    </>
  );
}

/** The side panel for the selected cell: its evidence, Probe again, and a Close that gives the matrix its room back. */
export function CellEvidence({ cell, result, evidenceRun, busy, now, onOpenRun, onProbe, onClose }: CellEvidenceProps) {
  return (
    <aside className="cell-detail" aria-label="Cell evidence">
      <div className="cell-detail-head">
        <h3>
          <span className="mono">{cell.model}</span> · {PROTOCOL_INFO[cell.protocol].label} ·{' '}
          {CAPABILITY_INFO[cell.capability].label}
        </h3>
        <button type="button" className="ghost small" aria-label="Close cell evidence" onClick={onClose}>
          ✕
        </button>
      </div>
      {result ? <Evidence result={result} now={now} onOpenRun={onOpenRun} /> : <p className="muted">Not probed yet.</p>}
      <button type="button" disabled={busy} onClick={onProbe}>
        {result ? 'Probe again' : 'Probe this cell'}
      </button>
      {evidenceRun && (
        <div className="evidence-viewer">
          <StreamViewer runId={evidenceRun} />
        </div>
      )}
    </aside>
  );
}
