import type { RunResult } from '../../../../shared/contract';

export interface SummaryRow {
  label: string;
  values: (number | string | undefined)[];
  /** Index of the best value, when the row has a direction and one run alone has it. */
  best?: number;
}

type Dir = 'min' | 'max' | undefined;

/**
 * The one rule for every row: among complete runs that report a number, the single best one gets the star; a
 * tie for the best (0 | 0 | 0, or 5 | 5 | 9 for "least") gets none, since nothing is better than the others.
 */
function bestOf(
  values: (number | string | undefined)[],
  results: (RunResult | undefined)[],
  dir: Dir,
): number | undefined {
  if (!dir) return undefined;
  const compared = values.flatMap((v, i) =>
    typeof v === 'number' && results[i]?.verdict === 'complete' ? [{ v, i }] : [],
  );
  if (compared.length < 2) return undefined;
  const top = dir === 'min' ? Math.min(...compared.map((c) => c.v)) : Math.max(...compared.map((c) => c.v));
  const holders = compared.filter((c) => c.v === top);
  return holders.length === 1 ? holders[0].i : undefined;
}

/** The comparison table: one row per metric, the best value in each row marked (fastest, most tokens/s). */
export function summaryRows(results: (RunResult | undefined)[]): SummaryRow[] {
  const row = (label: string, pick: (r: RunResult) => number | string | undefined, dir: Dir): SummaryRow => {
    const values = results.map((r) => (r ? pick(r) : undefined));
    return { label, values, best: bestOf(values, results, dir) };
  };
  const ttft = (r: RunResult) => (r.metrics.ttftMs === undefined ? undefined : Math.round(r.metrics.ttftMs));
  return [
    row('verdict', (r) => r.verdict, undefined),
    row('status', (r) => r.metrics.status, undefined),
    row('time to first token (ms)', ttft, 'min'),
    row('total (ms)', (r) => Math.round(r.metrics.totalMs), 'min'),
    row('output tokens/s', (r) => r.metrics.outputTokensPerSec, 'max'),
    row('input tokens', (r) => r.metrics.usage.inputTotal, undefined),
    row('output tokens', (r) => r.metrics.usage.output, undefined),
    row('cached tokens', (r) => r.metrics.usage.inputCached, 'max'),
    row('reasoning tokens', (r) => r.metrics.usage.reasoning, undefined),
  ];
}
