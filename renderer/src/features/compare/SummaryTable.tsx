import { PROTOCOL_INFO } from '../../../../shared/protocols/types';
import type { RunResult } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { summaryRows } from './summary';

/** One row per metric, one column per Compare column; the single best value of a row has a star. */
export function SummaryTable({ results }: { results: (RunResult | undefined)[] }) {
  const columns = useAppStore((s) => s.compareColumns);
  const rows = summaryRows(results);
  return (
    <table className="summary" aria-label="Comparison summary">
      <thead>
        <tr>
          <th />
          {columns.map((c, i) => (
            <th key={i}>
              {i + 1}. {PROTOCOL_INFO[c.protocol].label} · <span className="mono">{c.model}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}>
            <th>{r.label}</th>
            {columns.map((_, i) => (
              <td key={i} className={r.best === i ? 'best' : ''}>
                {r.values[i] === undefined ? (results[i] ? 'not reported' : '—') : String(r.values[i])}
                {r.best === i ? ' ★' : ''}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
