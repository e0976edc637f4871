import { useMemo } from 'react';
import { PROTOCOL_INFO } from '../../../../shared/protocols/types';
import type { RunResult } from '../../../../shared/contract';
import { useAppStore } from '../../store';
import { summaryRows } from './summary';
import { costText, totalText } from '../pricing/cost-text';
import { useCostQuotes } from '../pricing/use-cost';

/** One row per metric, one column per Compare column; the single best value of a row has a star. */
export function SummaryTable({ results }: { results: (RunResult | undefined)[] }) {
  const columns = useAppStore((s) => s.compareColumns);
  const rows = summaryRows(results);
  const activeId = useAppStore((s) => s.profiles?.activeId);
  const items = useMemo(
    () =>
      results.flatMap((r, i) =>
        r && columns[i]
          ? [
              {
                models: [columns[i].model, r.transcript.model ?? ''],
                usage: r.metrics.usage,
                profileId: columns[i].profileId,
              },
            ]
          : [],
      ),
    [results, columns],
  );
  const quotes = useCostQuotes(activeId, items);
  /** Each column's quote: the items are the columns that have a result, in order. */
  const quoteOf = (i: number) =>
    quotes && results[i] ? quotes[results.slice(0, i).filter(Boolean).length] : undefined;
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
        <tr>
          <th>cost</th>
          {columns.map((_, i) => (
            <td key={i}>{results[i] ? (costText(quoteOf(i)) ?? '…') : '—'}</td>
          ))}
        </tr>
      </tbody>
      {quotes && quotes.length > 0 && (
        <tfoot>
          <tr>
            <th>total cost</th>
            <td colSpan={columns.length} aria-label={`total cost ${totalText(quotes)}`}>
              {totalText(quotes)}
            </td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
