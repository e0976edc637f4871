import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  CAPABILITY_IDS,
  CAPABILITY_INFO,
  capabilityApplies,
  formatAge,
  resultKey,
  type CapabilityId,
} from '../../../../shared/capabilities';
import type { CapabilityResultView, GatewayErrorInfo, ProbeJobView } from '../../../../shared/contract';
import { PROTOCOL_IDS, PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { useNow } from '../../lib/use-now';
import { CellEvidence, type Cell } from './CellEvidence';
import { MatrixLegend, OUTCOME_MARK, PROOF, SHORT } from './matrix-legend';
import { plural } from '../../../../shared/plural';

const EMPTY: CapabilityResultView[] = [];
/** How often the matrix lists again while a probe job of its profile is running. */
const JOB_POLL_MS = 2000;
/** How often the shown ages (and rate-limit waits) move on while the tab is open. */
const TICK_MS = 1000;

type Probe = (models: string[], protocols: ProtocolId[], capabilities: CapabilityId[]) => void;

/** The models list's failure, worded as the protocol tabs' model picker words it. */
function modelsErrorText(e: GatewayErrorInfo): string {
  return `${e.status ? `HTTP ${e.status}` : e.type}: ${e.message}${e.requestId ? ` (request id ${e.requestId})` : ''}`;
}

/** Each rate-limited model still waiting, with the seconds left. */
function waitsOf(jobs: ProbeJobView[], now: number): Map<string, number> {
  const waits = new Map<string, number>();
  for (const j of jobs) {
    for (const w of j.waiting ?? []) {
      const left = Date.parse(w.until) - now;
      if (left > 0) waits.set(w.model, Math.max(waits.get(w.model) ?? 0, left));
    }
  }
  return waits;
}

const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;

interface ToolbarProps {
  rows: string[];
  jobs: ProbeJobView[];
  waits: Map<string, number>;
  filter: string;
  onFilter: (text: string) => void;
  probe: Probe;
}

/** Filter, "Probe everything shown", and the running jobs' progress with the models they wait for. */
function ProbeToolbar({ rows, jobs, waits, filter, onFilter, probe }: ToolbarProps) {
  const probeCancelRequested = useAppStore((s) => s.probeCancelRequested);
  const done = jobs.reduce((a, j) => a + j.done, 0);
  const total = jobs.reduce((a, j) => a + j.total, 0);
  const waiting = [...waits].map(([model, ms]) => `${model} waits ${seconds(ms)}`).join(', ');
  return (
    <>
      <input
        aria-label="Filter models"
        placeholder="filter models"
        value={filter}
        onChange={(e) => onFilter(e.target.value)}
      />
      <button
        type="button"
        className="primary"
        disabled={!rows.length || jobs.length > 0}
        onClick={() => probe(rows, [...PROTOCOL_IDS], [...CAPABILITY_IDS])}
      >
        Probe everything shown ({plural(rows.length, 'model')})
      </button>
      {jobs.length > 0 && (
        // The Cancel buttons sit beside the progressbar, not in it: a progressbar holds no controls.
        <div className="progress" role="group" aria-label="Probe jobs">
          <div className="bar" style={{ width: `${total ? (done / total) * 100 : 0}%` }} />
          <span
            className="small"
            role="progressbar"
            aria-label="Probe progress"
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={done}
          >
            {done} / {total}
            {waiting ? ` · rate limited: ${waiting} (other models go on)` : ''}
          </span>
          {jobs.map((j) => (
            <button key={j.jobId} type="button" className="small" onClick={() => void probeCancelRequested(j.jobId)}>
              Cancel
            </button>
          ))}
        </div>
      )}
    </>
  );
}

interface MatrixProps {
  rows: string[];
  byKey: Map<string, CapabilityResultView>;
  selected?: Cell;
  /** Every job's models are busy: the whole-matrix buttons wait for every job, a row only for its own. */
  busy: boolean;
  busyModels: Set<string>;
  waits: Map<string, number>;
  now: number;
  probe: Probe;
  onPick: (cell: Cell) => void;
}

const COLUMNS = PROTOCOL_IDS.flatMap((p) =>
  CAPABILITY_IDS.filter((c) => capabilityApplies(p, c)).map((c) => ({ protocol: p, capability: c })),
);

/** A capability head's tooltip: what it is, what proves it, and what a click does. */
function headTitle(protocol: ProtocolId, capability: CapabilityId): string {
  const what = `${CAPABILITY_INFO[capability].label} — proven by ${PROOF[capability]}.`;
  return `${what} Click to probe it on ${PROTOCOL_INFO[protocol].label} for every model shown.`;
}

/** The protocol heads and the capability heads; each capability head says what it is and what proves it. */
function MatrixHead({ rows, busy, probe }: Pick<MatrixProps, 'rows' | 'busy' | 'probe'>) {
  return (
    <thead>
      <tr>
        <th rowSpan={2}>model</th>
        {PROTOCOL_IDS.map((p) => (
          <th key={p} colSpan={COLUMNS.filter((c) => c.protocol === p).length} className="proto">
            {PROTOCOL_INFO[p].label}
          </th>
        ))}
      </tr>
      <tr>
        {COLUMNS.map((c) => (
          <th key={`${c.protocol}-${c.capability}`} className="cap">
            <button
              type="button"
              className="ghost small"
              title={headTitle(c.protocol, c.capability)}
              aria-label={`${SHORT[c.capability]}: probe column ${PROTOCOL_INFO[c.protocol].label} ${c.capability}`}
              disabled={busy}
              onClick={() => probe(rows, [c.protocol], [c.capability])}
            >
              {SHORT[c.capability]}
            </button>
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** One model's row: its ▶, the wait when the gateway rate-limits it, and a cell per protocol × capability. */
function MatrixRow(props: Omit<MatrixProps, 'rows'> & { model: string }) {
  const { model, byKey, selected, busyModels, waits, now, probe, onPick } = props;
  const wait = waits.get(model);
  return (
    <tr>
      <th className="row-head">
        <span className="mono">{model}</span>
        <button
          type="button"
          className="ghost small"
          aria-label={`Probe row ${model}`}
          disabled={busyModels.has(model)}
          onClick={() => probe([model], [...PROTOCOL_IDS], [...CAPABILITY_IDS])}
        >
          ▶
        </button>
        {wait !== undefined && (
          <span className="wait small" role="status" aria-label={`${model} rate limited`}>
            rate limited · waits {seconds(wait)}
          </span>
        )}
      </th>
      {COLUMNS.map((c) => {
        const r = byKey.get(resultKey({ model, ...c }));
        const isSel =
          selected?.model === model && selected.protocol === c.protocol && selected.capability === c.capability;
        const label = PROTOCOL_INFO[c.protocol].label;
        return (
          <td key={`${c.protocol}-${c.capability}`}>
            <button
              type="button"
              className={`cell ${r?.outcome ?? 'none'} ${isSel ? 'sel' : ''}`}
              aria-label={`${model} ${label} ${c.capability}: ${r ? r.outcome : 'not probed'}`}
              title={r ? `${r.outcome} — ${r.message} (${formatAge(now - Date.parse(r.at))} ago)` : 'not probed'}
              onClick={() => onPick({ model, ...c })}
            >
              {r ? OUTCOME_MARK[r.outcome] : '·'}
            </button>
          </td>
        );
      })}
    </tr>
  );
}

function Matrix(props: MatrixProps) {
  return (
    <table className="matrix" aria-label="Capability matrix">
      <MatrixHead rows={props.rows} busy={props.busy} probe={props.probe} />
      <tbody>
        {props.rows.map((model) => (
          <MatrixRow key={model} model={model} {...props} />
        ))}
      </tbody>
    </table>
  );
}

/** The profile's stored results, listed again while one of its jobs runs (progress is pushed to one window only). */
function useProfileResults(profileId: string | undefined, running: boolean) {
  const capabilitiesRequested = useAppStore((s) => s.capabilitiesRequested);
  useEffect(() => {
    if (profileId) void capabilitiesRequested(profileId);
  }, [profileId, capabilitiesRequested]);
  // A reloaded window (or one whose socket to the browser host reconnected) learns of its jobs' progress and
  // end by listing again.
  useEffect(() => {
    if (!profileId || !running) return;
    const t = setInterval(() => void capabilitiesRequested(profileId), JOB_POLL_MS);
    return () => clearInterval(t);
  }, [profileId, running, capabilitiesRequested]);
}

/**
 * The picked cell, its open evidence run and the tab's error. They belong to the profile they were chosen on
 * and are dropped on a switch (during render, so no frame ever shows profile A's cell under profile B).
 */
function useCellSelection(profileId: string | undefined) {
  const evidenceRequested = useAppStore((s) => s.evidenceRequested);
  const [picked, setPicked] = useState<Cell>();
  const [evidenceRun, setEvidenceRun] = useState<string>();
  const [error, setError] = useState<string>();
  const [shownProfile, setShownProfile] = useState(profileId);
  if (shownProfile !== profileId) {
    setShownProfile(profileId);
    setPicked(undefined);
    setEvidenceRun(undefined);
    setError(undefined);
  }
  const pick = (cell?: Cell) => {
    setPicked(cell);
    setEvidenceRun(undefined);
  };
  const openEvidence = async (runId: string) => {
    const err = await evidenceRequested(runId);
    const kept = 'the evidence is kept in memory for recent runs only: run the cell again to see it';
    if (err) setError(`${err.message} (${kept})`);
    else setEvidenceRun(runId);
  };
  return { picked, pick, evidenceRun, openEvidence, error, setError };
}

/**
 * The capability proof matrix: rows are the listed models, columns protocol × capability. A cell is coloured
 * only by evidence found in a response, says how old it is, and opens its evidence run.
 */
export function CapabilitiesTab() {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const models = useAppStore((s) => (profileId ? s.models[profileId]?.models : undefined));
  const modelsError = useAppStore((s) => (profileId ? s.models[profileId]?.error : undefined));
  const list = useAppStore((s) => (profileId ? s.capabilities[profileId] : undefined));
  const jobs = useAppStore(
    useShallow((s) => Object.values(s.probeJobs).filter((j) => j.profileId === profileId && j.state === 'running')),
  );
  const probeRequested = useAppStore((s) => s.probeRequested);
  const [filter, setFilter] = useState('');
  const { picked, pick, evidenceRun, openEvidence, error, setError } = useCellSelection(profileId);
  const busy = jobs.length > 0;
  // A job that predates the models list in its view is taken to cover every row.
  const busyModels = new Set(jobs.flatMap((j) => j.models ?? (models ?? []).map((m) => m.id)));
  const now = useNow(TICK_MS);
  useProfileResults(profileId, busy);

  const results = list?.results ?? EMPTY;
  const byKey = useMemo(() => new Map(results.map((r) => [resultKey(r), r])), [results]);
  const listed = useMemo(() => new Set((models ?? []).map((m) => m.id)), [models]);
  // A cell stays selected only while its model is in this profile's matrix.
  const selected = picked && listed.has(picked.model) ? picked : undefined;
  const rows = useMemo(
    () => (models ?? []).map((m) => m.id).filter((id) => id.toLowerCase().includes(filter.toLowerCase())),
    [models, filter],
  );
  const waits = waitsOf(jobs, now);

  const probe: Probe = (modelsToRun, protocols, capabilities) => {
    // Only models of the active profile's matrix: never probe a model on a gateway that did not list it.
    const toRun = modelsToRun.filter((m) => listed.has(m));
    if (!profileId || !toRun.length) return;
    void probeRequested({ profileId, models: toRun, protocols, capabilities }).then((err) => setError(err?.message));
  };

  return (
    <div className="capabilities" role="tabpanel" aria-label="Capabilities">
      <div className="cap-toolbar">
        <p className="muted small">
          A 200 proves nothing: each cell passes only on evidence in the response (a tool call that validates,
          cache-read tokens, a signed thinking block…).
        </p>
        <ProbeToolbar rows={rows} jobs={jobs} waits={waits} filter={filter} onFilter={setFilter} probe={probe} />
        {error && <span className="field-error">{error}</span>}
      </div>
      {modelsError && (
        <p className="banner warn models-error" role="alert" aria-label="Models error">
          {modelsErrorText(modelsError)}
        </p>
      )}
      <div className={`cap-body ${selected ? 'with-detail' : ''}`}>
        <div className="matrix-wrap">
          <Matrix
            rows={rows}
            byKey={byKey}
            selected={selected}
            busy={busy}
            busyModels={busyModels}
            waits={waits}
            now={now}
            probe={probe}
            onPick={pick}
          />
          {!rows.length && <p className="muted empty">No models listed for this profile{modelsError ? '' : ' yet'}.</p>}
          <MatrixLegend />
        </div>
        {selected && (
          <CellEvidence
            cell={selected}
            result={byKey.get(resultKey(selected))}
            evidenceRun={evidenceRun}
            busy={busyModels.has(selected.model)}
            now={now}
            onOpenRun={(id) => void openEvidence(id)}
            onProbe={() => probe([selected.model], [selected.protocol], [selected.capability])}
            onClose={() => pick(undefined)}
          />
        )}
      </div>
    </div>
  );
}
