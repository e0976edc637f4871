/** Two saved load runs side by side: what differs in their setup, and each figure with the better one marked. */
import { useAppStore } from '../../store';
import type { LoadRecord, LoadRecordSummary } from '../../../../shared/contract';
import { better, figuresOf } from './format';

const labelOf = (r: LoadRecordSummary) => {
  const when = new Date(r.startedAt).toLocaleTimeString();
  return [when, r.profileName, r.protocol, r.model ?? '—', `${r.summary.sent} req`].join(' · ');
};

function setupOf(r: LoadRecord): [string, string][] {
  return [
    ['Profile', r.profileName],
    ['Protocol', r.protocol],
    ['Model', r.model ?? '—'],
    ['Requests', String(r.config.requests)],
    ['Concurrency', String(r.config.concurrency)],
    ['Target rate', r.config.ratePerSec === undefined ? 'none' : `${r.config.ratePerSec} req/s`],
  ];
}

export function LoadCompare() {
  const runs = useAppStore((s) => s.loadRuns);
  const ids = useAppStore((s) => s.loadCompareIds);
  const a = useAppStore((s) => s.loadRecords[s.loadCompareIds[0]]);
  const b = useAppStore((s) => s.loadRecords[s.loadCompareIds[1]]);
  const chosen = useAppStore((s) => s.loadCompareChosen);
  return (
    <section className="card" role="region" aria-label="Compare load runs">
      <div className="card-head">
        <strong>Compare two load runs</strong>
      </div>
      <div className="load-compare-pick">
        {(['A', 'B'] as const).map((slot, k) => (
          <label key={slot} className="field-inline">
            {slot}
            <select
              aria-label={`Load run ${slot}`}
              value={ids[k]}
              onChange={(e) => void chosen(k as 0 | 1, e.target.value)}
            >
              <option value="">Choose a load run…</option>
              {runs.map((r) => (
                <option key={r.loadId} value={r.loadId}>
                  {labelOf(r)}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {a && b && <CompareTable a={a} b={b} />}
    </section>
  );
}

function CompareTable({ a, b }: { a: LoadRecord; b: LoadRecord }) {
  const fa = figuresOf(a.summary);
  const fb = figuresOf(b.summary);
  const sb = setupOf(b);
  return (
    <table className="load-table load-compare-table" aria-label="Load comparison">
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col">A</th>
          <th scope="col">B</th>
        </tr>
      </thead>
      <tbody>
        {setupOf(a).map(([label, va], k) => (
          <tr key={label} aria-label={label} className={va !== sb[k][1] ? 'differs' : ''}>
            <th scope="row">
              {label}
              {va !== sb[k][1] && <span className="badge">differs</span>}
            </th>
            <td>{va}</td>
            <td>{sb[k][1]}</td>
          </tr>
        ))}
        {fa.map((f, k) => {
          const win = better(f, f.value, fb[k].value);
          return (
            <tr key={f.label} aria-label={f.label}>
              <th scope="row">{f.label}</th>
              <td className={win === 'a' ? 'best' : ''} title={win === 'a' ? 'better' : undefined}>
                {f.text}
              </td>
              <td className={win === 'b' ? 'best' : ''} title={win === 'b' ? 'better' : undefined}>
                {fb[k].text}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
