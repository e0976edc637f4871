import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CAPABILITY_IDS, CAPABILITY_INFO, capabilityApplies, formatAge, resultKey, type CapabilityId } from '../../../../shared/capabilities';
import type { CapabilityResultView } from '../../../../shared/contract';
import { PROTOCOL_IDS, PROTOCOL_INFO, type ProtocolId } from '../../../../shared/protocols/types';
import { useAppStore } from '../../store';
import { StreamViewer } from '../stream-viewer/StreamViewer';

const EMPTY: CapabilityResultView[] = [];
/** How often the matrix lists again while a probe job of its profile is running. */
const JOB_POLL_MS = 2000;
/** How often the shown ages move on while the tab is open; they are in seconds to days, so slowly is enough. */
const AGE_TICK_MS = 30_000;
const SHORT: Record<CapabilityId, string> = {
  streaming: 'str',
  tools: 'tool',
  'tool-roundtrip': 'rt',
  caching: 'cache',
  thinking: 'think',
  vision: 'vis',
  'structured-output': 'json',
  'token-counting': 'count',
  background: 'bg',
};

interface Cell {
  model: string;
  protocol: ProtocolId;
  capability: CapabilityId;
}

/**
 * The capability proof matrix: rows are the listed models, columns protocol × capability. A cell is coloured
 * only by evidence found in a response, says how old it is, and opens its evidence run.
 */
export function CapabilitiesTab() {
  const profileId = useAppStore((s) => s.profiles?.activeId);
  const models = useAppStore((s) => (profileId ? s.models[profileId]?.models : undefined));
  const list = useAppStore((s) => (profileId ? s.capabilities[profileId] : undefined));
  const jobs = useAppStore(useShallow((s) => Object.values(s.probeJobs).filter((j) => j.profileId === profileId && j.state === 'running')));
  const capabilitiesRequested = useAppStore((s) => s.capabilitiesRequested);
  const probeRequested = useAppStore((s) => s.probeRequested);
  const probeCancelRequested = useAppStore((s) => s.probeCancelRequested);
  const evidenceRequested = useAppStore((s) => s.evidenceRequested);
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<Cell>();
  const [evidenceRun, setEvidenceRun] = useState<string>();
  const [error, setError] = useState<string>();
  const [shownProfile, setShownProfile] = useState(profileId);
  // A selected cell, its evidence and errors belong to the profile they were chosen on: drop them on a switch
  // (during render, so no frame ever shows profile A's cell under profile B).
  if (shownProfile !== profileId) {
    setShownProfile(profileId);
    setPicked(undefined);
    setEvidenceRun(undefined);
    setError(undefined);
  }
  const running = jobs.length > 0;
  const [, setAgeTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setAgeTick((n) => n + 1), AGE_TICK_MS);
    return () => clearInterval(t);
  }, []);
  // The listed ageMs is as old as the list; the timestamp stays true however long the tab is open.
  const now = Date.now();
  const ageOf = (r: CapabilityResultView) => formatAge(now - Date.parse(r.at));

  useEffect(() => {
    if (profileId) void capabilitiesRequested(profileId);
  }, [profileId, capabilitiesRequested]);
  // Progress is pushed only to the window that started a job: a reloaded window (or one whose socket to the
  // browser host reconnected) learns of its jobs' progress and end by listing again.
  useEffect(() => {
    if (!profileId || !running) return;
    const t = setInterval(() => void capabilitiesRequested(profileId), JOB_POLL_MS);
    return () => clearInterval(t);
  }, [profileId, running, capabilitiesRequested]);

  const results = list?.results ?? EMPTY;
  const byKey = useMemo(() => new Map(results.map((r) => [resultKey(r), r])), [results]);
  const listed = useMemo(() => new Set((models ?? []).map((m) => m.id)), [models]);
  // A cell stays selected only while its model is in this profile's matrix.
  const selected = picked && listed.has(picked.model) ? picked : undefined;
  const rows = useMemo(() => (models ?? []).map((m) => m.id).filter((id) => id.toLowerCase().includes(filter.toLowerCase())), [models, filter]);
  const columns = useMemo(() => PROTOCOL_IDS.flatMap((p) => CAPABILITY_IDS.filter((c) => capabilityApplies(p, c)).map((c) => ({ protocol: p, capability: c }))), []);
  const done = jobs.reduce((a, j) => a + j.done, 0);
  const total = jobs.reduce((a, j) => a + j.total, 0);
  const paused = jobs.find((j) => j.pausedUntil && Date.parse(j.pausedUntil) > Date.now());

  const probe = async (modelsToRun: string[], protocols: ProtocolId[], capabilities: CapabilityId[]) => {
    // Only models of the active profile's matrix: never probe a model on a gateway that did not list it.
    const toRun = modelsToRun.filter((m) => listed.has(m));
    if (!profileId || !toRun.length) return;
    const err = await probeRequested({ profileId, models: toRun, protocols, capabilities });
    setError(err?.message);
  };

  const selectedResult = selected ? byKey.get(resultKey(selected)) : undefined;
  const openEvidence = async (runId: string) => {
    const err = await evidenceRequested(runId);
    if (err) setError(`${err.message} (the evidence is kept in memory for recent runs only: run the cell again to see it)`);
    else setEvidenceRun(runId);
  };

  return (
    <div className="capabilities" role="tabpanel" aria-label="Capabilities">
      <div className="cap-toolbar">
        <p className="muted small">
          A 200 proves nothing: each cell passes only on evidence in the response (a tool call that validates, cache-read tokens, a signed thinking block…).
        </p>
        <input aria-label="Filter models" placeholder="filter models" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <button type="button" className="primary" disabled={!rows.length || jobs.length > 0} onClick={() => void probe(rows, [...PROTOCOL_IDS], [...CAPABILITY_IDS])}>
          Probe everything shown ({rows.length} models)
        </button>
        {jobs.length > 0 && (
          <div className="progress" role="progressbar" aria-label="Probe progress" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
            <div className="bar" style={{ width: `${total ? (done / total) * 100 : 0}%` }} />
            <span className="small">
              {done} / {total}
              {paused ? ` · rate limited, waiting until ${new Date(paused.pausedUntil!).toLocaleTimeString()}` : ''}
            </span>
            {jobs.map((j) => (
              <button key={j.jobId} type="button" className="small" onClick={() => void probeCancelRequested(j.jobId)}>
                Cancel
              </button>
            ))}
          </div>
        )}
        {error && <span className="field-error">{error}</span>}
      </div>
      <div className="cap-body">
        <div className="matrix-wrap">
          <table className="matrix" aria-label="Capability matrix">
            <thead>
              <tr>
                <th rowSpan={2}>model</th>
                {PROTOCOL_IDS.map((p) => (
                  <th key={p} colSpan={columns.filter((c) => c.protocol === p).length} className="proto">
                    {PROTOCOL_INFO[p].label}
                  </th>
                ))}
              </tr>
              <tr>
                {columns.map((c) => (
                  <th key={`${c.protocol}-${c.capability}`} className="cap">
                    <button type="button" className="ghost small" title={`Probe ${CAPABILITY_INFO[c.capability].label} on ${PROTOCOL_INFO[c.protocol].label} for every model shown`} aria-label={`Probe column ${PROTOCOL_INFO[c.protocol].label} ${c.capability}`} disabled={jobs.length > 0} onClick={() => void probe(rows, [c.protocol], [c.capability])}>
                      {SHORT[c.capability]}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((model) => (
                <tr key={model}>
                  <th className="row-head">
                    <span className="mono">{model}</span>
                    <button type="button" className="ghost small" aria-label={`Probe row ${model}`} disabled={jobs.length > 0} onClick={() => void probe([model], [...PROTOCOL_IDS], [...CAPABILITY_IDS])}>
                      ▶
                    </button>
                  </th>
                  {columns.map((c) => {
                    const r = byKey.get(resultKey({ model, ...c }));
                    const isSel = selected && selected.model === model && selected.protocol === c.protocol && selected.capability === c.capability;
                    return (
                      <td key={`${c.protocol}-${c.capability}`}>
                        <button
                          type="button"
                          className={`cell ${r?.outcome ?? 'none'} ${isSel ? 'sel' : ''}`}
                          aria-label={`${model} ${PROTOCOL_INFO[c.protocol].label} ${c.capability}: ${r ? r.outcome : 'not probed'}`}
                          title={r ? `${r.outcome} — ${r.message} (${ageOf(r)} ago)` : 'not probed'}
                          onClick={() => {
                            setPicked({ model, ...c });
                            setEvidenceRun(undefined);
                          }}
                        >
                          {r ? (r.outcome === 'proven' ? '✓' : r.outcome === 'not-supported' ? '✗' : r.outcome === 'error' ? '!' : '?') : '·'}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          {!rows.length && <p className="muted empty">No models listed for this profile yet.</p>}
        </div>
        {selected && (
          <aside className="cell-detail" aria-label="Cell evidence">
            <h3>
              <span className="mono">{selected.model}</span> · {PROTOCOL_INFO[selected.protocol].label} · {CAPABILITY_INFO[selected.capability].label}
            </h3>
            {selectedResult ? (
              <>
                <p>
                  <span className={`badge outcome ${selectedResult.outcome}`}>{selectedResult.outcome}</span> {selectedResult.message}
                </p>
                <p className="muted small">
                  {new Date(selectedResult.at).toLocaleString()} ({ageOf(selectedResult)} ago) · {selectedResult.attempts} attempt(s)
                  {selectedResult.status ? ` · HTTP ${selectedResult.status}` : ''}
                </p>
                <p>{selectedResult.evidence.explanation}</p>
                {selectedResult.evidence.text && <pre className="mono evidence-text">{selectedResult.evidence.text}</pre>}
                <details>
                  <summary>Evidence fields</summary>
                  <pre className="mono">{JSON.stringify(selectedResult.evidence.fields, null, 2)}</pre>
                </details>
                <div className="row wrap">
                  {selectedResult.evidence.runIds.map((id, i) => (
                    <button key={id} type="button" onClick={() => void openEvidence(id)}>
                      Open evidence run {selectedResult.evidence.runIds.length > 1 ? i + 1 : ''}
                    </button>
                  ))}
                </div>
              </>
            ) : (
              <p className="muted">Not probed yet.</p>
            )}
            <button type="button" disabled={jobs.length > 0} onClick={() => void probe([selected.model], [selected.protocol], [selected.capability])}>
              {selectedResult ? 'Probe again' : 'Probe this cell'}
            </button>
            {evidenceRun && (
              <div className="evidence-viewer">
                <StreamViewer runId={evidenceRun} />
              </div>
            )}
          </aside>
        )}
      </div>
    </div>
  );
}
