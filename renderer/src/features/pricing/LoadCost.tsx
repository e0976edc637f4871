import { useMemo } from 'react';
import type { LoadRecord, QuoteItem } from '../../../../shared/contract';
import type { LoadRow } from '../../../../shared/load/stats';
import { useCostQuotes } from './use-cost';
import { usd } from './cost-text';

/** Requests that reported the same usage cost the same: each distinct usage is quoted once, then counted. */
export function loadUsageGroups(rows: readonly LoadRow[]): { usage: QuoteItem['usage']; count: number }[] {
  const groups = new Map<string, { usage: QuoteItem['usage']; count: number }>();
  for (const r of rows) {
    if (r.inputTokens === undefined && r.outputTokens === undefined) continue;
    const usage = {
      inputTotal: r.inputTokens,
      output: r.outputTokens,
      inputCached: r.cacheReadTokens,
      inputCacheWrite: r.cacheWriteTokens,
    };
    const key = JSON.stringify(usage);
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { usage, count: 1 });
  }
  return [...groups.values()];
}

/**
 * A load run's cost: the sum over the requests that reported usage, and per 1,000 of them. Prices are today's
 * (the core quotes them when shown), not those of the day the run was made.
 */
export function LoadCost({ record }: { record: LoadRecord }) {
  const groups = useMemo(() => loadUsageGroups(record.rows), [record.rows]);
  const model = record.model ?? record.request?.model;
  const items = useMemo(() => groups.map((g) => ({ models: model ? [model] : [], usage: g.usage })), [groups, model]);
  const quotes = useCostQuotes(record.request?.profileId, items);
  let text = '…';
  let per1k = '—';
  const counted = groups.reduce((n, g) => n + g.count, 0);
  if (!record.request?.profileId || counted === 0) text = 'no price (no usage reported)';
  else if (quotes) {
    const priced = quotes.flatMap((q, i) => (q.kind === 'priced' ? [{ usd: q.usd, count: groups[i].count }] : []));
    const n = priced.reduce((a, p) => a + p.count, 0);
    const total = priced.reduce((a, p) => a + p.usd * p.count, 0);
    if (n === 0) text = 'no price';
    else {
      const left = counted - n;
      text = usd(total) + (left > 0 ? ` (${left} requests without a price left out)` : '');
      per1k = usd((total / n) * 1000);
    }
  }
  return (
    <>
      <div aria-label="Cost" title="From each request's reported usage and this profile's prices (Prices)">
        <dt className="label">Cost</dt>
        <dd className="mono">{text}</dd>
      </div>
      <div aria-label="Cost per 1,000 requests">
        <dt className="label">Cost per 1,000 requests</dt>
        <dd className="mono">{per1k}</dd>
      </div>
    </>
  );
}
