/** A finished load run: its summary figures, errors by class with examples, the per-request rows, and export. */
import { useState } from 'react';
import type { LoadRecord } from '../../../../shared/contract';
import { rowsToCsv, windowsToCsv } from '../../../../shared/load/csv';
import { pointOf, windowStats } from '../../../../shared/load/windows';
import { tpotOf } from '../../../../shared/load/stats';
import { download, LATENCIES, ms, percent, rate, requestRate, STATS } from './format';
import { LoadCost } from '../pricing/LoadCost';

/** Rows shown in the window; the export has them all. */
const ROWS_SHOWN = 500;

export function LoadSummary({ record }: { record: LoadRecord }) {
  const s = record.summary;
  const perRequest = s.outputTokensPerSecPerRequest;
  const base = `load-${record.startedAt.replace(/[:.]/g, '-')}`;
  return (
    <section className="card load-summary" role="region" aria-label="Load summary">
      <div className="card-head">
        <strong>
          {record.profileName} · {record.protocol} · {record.model ?? 'no model'}
        </strong>
        <span className="small muted">{record.endReason}</span>
      </div>
      <dl className="metrics">
        <Item label="Requests sent" value={String(s.sent)} />
        <Item label="Completed" value={String(s.completed)} />
        <Item label="Failed" value={String(s.failed)} />
        <Item label="Cancelled" value={String(s.cancelled)} />
        <Item label="Success rate" value={percent(s.successRate)} />
        <Item label="Duration" value={ms(s.durationMs)} />
        <Item label="Requests/s" value={requestRate(s.requestsPerSec, s)} />
        <Item label="Completed/s" value={requestRate(s.completedPerSec, s)} />
        <Item label="Output tokens/s" value={rate(s.outputTokensPerSec, 'tok/s')} />
        <Item
          label="Output tokens/s per request"
          value={`mean ${rate(perRequest.mean, 'tok/s')}, p50 ${rate(perRequest.p50, 'tok/s')}`}
        />
        <Item label="Output tokens" value={String(s.totalOutputTokens)} />
        <LoadCost record={record} />
        <Item
          label="Engine overhead"
          value={record.overheadMs === undefined ? '—' : `${record.overheadMs.toFixed(3)} ms per request`}
        />
      </dl>
      <LatencyTable summary={s} />
      <Errors record={record} />
      <div className="row">
        <button type="button" onClick={() => download(`${base}.csv`, rowsToCsv(record.rows), 'text/csv')}>
          Export CSV
        </button>
        <button type="button" onClick={() => download(`${base}-windows.csv`, windowsCsvOf(record), 'text/csv')}>
          Export windows CSV
        </button>
        <button
          type="button"
          onClick={() => download(`${base}.json`, JSON.stringify(record, null, 2), 'application/json')}
        >
          Export JSON
        </button>
      </div>
      <Rows record={record} />
    </section>
  );
}

/** The figures over time of a saved run, one line per window (docs/load.md "Over time"). */
function windowsCsvOf(record: LoadRecord): string {
  const points = record.rows.map(pointOf);
  const elapsedMs = points.reduce((m, p) => Math.max(m, p.t), 0);
  return windowsToCsv(windowStats({ points, rateLimits: record.rateLimits, elapsedMs, shape: record.config.shape }));
}

/** TTFT, ITL, TPOT and E2E at mean, p50, p90 and p99. */
function LatencyTable({ summary: s }: { summary: LoadRecord['summary'] }) {
  return (
    <table className="load-table" aria-label="Latency percentiles">
      <thead>
        <tr>
          <th scope="col">Latency</th>
          <th scope="col">n</th>
          {STATS.map((k) => (
            <th key={k} scope="col">
              {k}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {LATENCIES.map(([key, label]) => (
          <tr key={key} aria-label={label}>
            <th scope="row">{label}</th>
            <td>{s[key].count}</td>
            {STATS.map((k) => (
              <td key={k} data-stat={k}>
                {ms(s[key][k])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div aria-label={label}>
      <dt className="label">{label}</dt>
      <dd className="mono">{value}</dd>
    </div>
  );
}

function Errors({ record }: { record: LoadRecord }) {
  const groups = record.summary.errors;
  if (groups.length === 0) return <p className="small muted">No errors.</p>;
  return (
    <ul className="load-errors" aria-label="Errors by class">
      {groups.map((g) => (
        <li key={g.key}>
          <strong>{g.key}</strong> × {g.count}
          <ul className="small muted">
            {g.examples.map((e, k) => (
              // An example from Locust has no request number (-1): Locust keeps each error text once.
              <li key={`${e.i}-${k}`}>
                {e.i >= 0 && `#${e.i + 1}: `}
                {e.reason}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

function Rows({ record }: { record: LoadRecord }) {
  // Rendered only once opened: 500 table rows built with the summary made the run's last frame a long task.
  const [open, setOpen] = useState(false);
  const rows = open ? record.rows.slice(0, ROWS_SHOWN) : [];
  return (
    <details className="load-rows" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        Per-request rows ({record.rows.length}
        {record.rows.length > ROWS_SHOWN ? `, first ${ROWS_SHOWN} shown; the export has all` : ''})
      </summary>
      <table className="load-table" aria-label="Per-request rows">
        <thead>
          <tr>
            {['#', 'start', 'verdict', 'status', 'TTFT', 'E2E', 'TPOT', 'output tokens'].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.i}>
              <td>{r.i + 1}</td>
              <td>{ms(r.startMs)}</td>
              <td>{r.verdict}</td>
              <td>{r.status ?? '—'}</td>
              <td>{ms(r.ttftMs)}</td>
              <td>{ms(r.e2eMs)}</td>
              <td>{ms(tpotOf(r))}</td>
              <td>{r.outputTokens ?? 'not reported'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
