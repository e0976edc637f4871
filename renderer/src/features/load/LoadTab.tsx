/**
 * The Load tab (docs/load.md): one request N times at concurrency C. While a run goes the window shows the
 * aggregates the core pushes (progress, a scatter, a histogram, rate-limit headers), never its streams.
 */
import { useEffect, useMemo, useState } from 'react';
import type { LoadRecord } from '../../../../shared/contract';
import { pointOf, windowSizeMs } from '../../../../shared/load/windows';
import { useAppStore } from '../../store';
import type { LiveLoad } from '../../store/load-slice';
import { Histogram, RateLimits, Scatter } from './Charts';
import { LoadCompare } from './LoadCompare';
import { LoadForm } from './LoadForm';
import { LoadSummary } from './LoadSummary';
import { LocustActions } from './LocustActions';
import { OverTime } from './OverTime';
import './load.css';

/** Requests stopped before they ended: counted apart from the failures, as the summary counts them. */
const cancelledOf = (live: LiveLoad) => live.points.reduce((n, p) => n + (p.cancelled ? 1 : 0), 0);

function statusText(live: LiveLoad | undefined): string {
  if (!live) return 'Idle: no load run yet.';
  const cancelled = cancelledOf(live);
  // A timed shape has no N: it ends with its time, so its counts are not "of" anything.
  const timed = live.durationS !== undefined;
  const counts =
    `${live.done}${timed ? '' : ` of ${live.total}`} done, ${live.inFlight} in flight, ${live.failed} failed` +
    (cancelled ? `, ${cancelled} cancelled` : '') +
    (live.skipped ? `, ${live.skipped} skipped at the cap` : '');
  const secs = `${(live.elapsedMs / 1000).toFixed(1)} s${timed && live.state === 'running' ? ` of ${live.durationS} s` : ''}`;
  const stage = timed && live.state === 'running' ? `${live.stage?.label ?? 'Shape ended, finishing'} · ` : '';
  switch (live.state) {
    case 'running':
      return `Running: ${stage}${counts} · ${secs}`;
    case 'stopping':
      return `Stopping: cancelling ${live.inFlight} in flight · ${counts}`;
    case 'finished':
      return `Finished: ${counts} · ${secs}`;
    case 'stopped':
      return `Stopped: ${counts} · ${secs}`;
  }
}

/** The live run's figures over time while it goes; the selected saved run's once none is running. */
function OverTimeOf({ live, record }: { live?: LiveLoad; record?: LoadRecord }) {
  const running = live?.state === 'running' || live?.state === 'stopping';
  const saved = useMemo(() => {
    if (!record) return undefined;
    const points = record.rows.map(pointOf);
    const elapsedMs = points.reduce((m, p) => Math.max(m, p.t), 0);
    return { points, elapsedMs };
  }, [record]);
  if (record && saved && !running)
    return (
      <OverTime
        points={saved.points}
        rateLimits={record.rateLimits}
        elapsedMs={saved.elapsedMs}
        shape={record.config.shape}
      />
    );
  if (!live) return null;
  return <LiveOverTime live={live} />;
}

/**
 * A running load's figures over time, drawn once per window that has ended rather than at every push: a window
 * still filling says little, and five charts four times a second were most of the tab's work during a run.
 */
function LiveOverTime({ live }: { live: LiveLoad }) {
  const windowMs = windowSizeMs(live.elapsedMs);
  const edge = Math.floor(live.elapsedMs / windowMs) * windowMs;
  const ended = live.state !== 'running' && live.state !== 'stopping';
  const key = ended ? `${live.loadId} end` : `${live.loadId} ${edge}`;
  const [held, setHeld] = useState({ key: '', live });
  // State derived from the pushes (React's "storing information from previous renders"): the points as they were
  // when the last window ended, kept until the next one ends.
  if (held.key !== key) setHeld({ key, live });
  const shown = held.key === key ? held.live : live;
  return (
    <OverTime
      points={shown.points}
      rateLimits={shown.rateLimits}
      elapsedMs={ended ? shown.elapsedMs : edge}
      shape={shown.shape}
    />
  );
}

function Progress({ live }: { live: LiveLoad }) {
  const pct = (n: number) => `${(100 * n) / Math.max(1, live.total)}%`;
  const cancelled = cancelledOf(live);
  return (
    <div
      className="load-progress"
      role="progressbar"
      aria-label="Load progress"
      aria-valuemin={0}
      aria-valuemax={live.total}
      aria-valuenow={live.done}
    >
      <span className="seg ok" style={{ width: pct(live.done - live.failed - cancelled) }} />
      <span className="seg failed" style={{ width: pct(live.failed) }} />
      <span className="seg cancelled" style={{ width: pct(cancelled) }} />
      <span className="seg flight" style={{ width: pct(live.inFlight) }} />
    </div>
  );
}

function SavedRuns() {
  const runs = useAppStore((s) => s.loadRuns);
  const selected = useAppStore((s) => s.loadSelectedId);
  const select = useAppStore((s) => s.loadRunSelected);
  const remove = useAppStore((s) => s.loadRunDeleted);
  if (runs.length === 0) return <p className="small muted">No saved load runs yet.</p>;
  return (
    <ul className="load-runs" aria-label="Saved load runs">
      {runs.map((r) => (
        <li key={r.loadId} className={r.loadId === selected ? 'selected' : ''}>
          <button type="button" className="ghost small" onClick={() => void select(r.loadId)}>
            {new Date(r.startedAt).toLocaleString()} · {r.profileName} · {r.protocol} · {r.model ?? '—'} ·{' '}
            {r.summary.completed}/{r.summary.sent} ok
          </button>
          <button
            type="button"
            className="ghost small"
            aria-label={`Delete load run ${r.loadId}`}
            onClick={() => void remove(r.loadId)}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}

export function LoadTab() {
  const live = useAppStore((s) => s.loadLive);
  const error = useAppStore((s) => s.loadError);
  const record = useAppStore((s) => (s.loadSelectedId ? s.loadRecords[s.loadSelectedId] : undefined));
  const runsRequested = useAppStore((s) => s.loadRunsRequested);
  const presetsRequested = useAppStore((s) => s.presetsRequested);
  useEffect(() => {
    void runsRequested();
    void presetsRequested();
  }, [runsRequested, presetsRequested]);
  return (
    <div className="load-tab" role="tabpanel" aria-label="Load">
      <div className="load-col">
        <LoadForm />
        <LocustActions />
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="stream-status" role="status" aria-label="Load status">
          {statusText(live)}
          {live?.overheadMs !== undefined && (
            <span className="small muted"> · engine overhead {live.overheadMs.toFixed(3)} ms per request</span>
          )}
        </div>
        {live && (
          <>
            <Progress live={live} />
            <Scatter points={live.points} />
            <Histogram points={live.points} />
            <RateLimits samples={live.rateLimits} elapsedMs={live.elapsedMs} />
          </>
        )}
        <OverTimeOf live={live} record={record} />
      </div>
      <div className="load-col">
        {record && <LoadSummary record={record} />}
        <section className="card" aria-label="Load runs">
          <div className="card-head">
            <strong>Saved load runs</strong>
          </div>
          <SavedRuns />
        </section>
        <LoadCompare />
      </div>
    </div>
  );
}
