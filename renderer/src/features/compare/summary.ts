import type { RunResult } from '../../../../shared/contract';

export interface SummaryRow {
  label: string;
  values: (number | string | undefined)[];
  /** Index of the best value, when the row has a direction. */
  best?: number;
}

type Dir = 'min' | 'max' | undefined;

/** The comparison table: one row per metric, the best value in each row marked (fastest, most tokens/s). */
export function summaryRows(results: (RunResult | undefined)[]): SummaryRow[] {
  const row = (label: string, pick: (r: RunResult) => number | string | undefined, dir: Dir): SummaryRow => {
    const values = results.map((r) => (r ? pick(r) : undefined));
    let best: number | undefined;
    if (dir) {
      values.forEach((v, i) => {
        if (typeof v !== 'number') return;
        if (results[i]?.verdict !== 'complete') return;
        if (best === undefined || (dir === 'min' ? v < (values[best] as number) : v > (values[best] as number))) best = i;
      });
    }
    return { label, values, best: values.filter((v) => typeof v === 'number').length > 1 ? best : undefined };
  };
  return [
    row('verdict', (r) => r.verdict, undefined),
    row('status', (r) => r.metrics.status, undefined),
    row('time to first token (ms)', (r) => (r.metrics.ttftMs === undefined ? undefined : Math.round(r.metrics.ttftMs)), 'min'),
    row('total (ms)', (r) => Math.round(r.metrics.totalMs), 'min'),
    row('output tokens/s', (r) => r.metrics.outputTokensPerSec, 'max'),
    row('input tokens', (r) => r.metrics.usage.inputTotal, undefined),
    row('output tokens', (r) => r.metrics.usage.output, undefined),
    row('cached tokens', (r) => r.metrics.usage.inputCached, 'max'),
    row('reasoning tokens', (r) => r.metrics.usage.reasoning, undefined),
  ];
}
