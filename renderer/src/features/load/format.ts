/** How the Load tab writes its figures, and which of two is better: pure, shared by the summary and the comparison. */
import type { Distribution, LoadSummary } from '../../../../shared/load/stats';

export const ms = (v: number | undefined) => (v === undefined ? '—' : `${v.toFixed(1)} ms`);
export const rate = (v: number | undefined, unit: string) => (v === undefined ? '—' : `${v.toFixed(2)} ${unit}`);
export const percent = (v: number | undefined) => (v === undefined ? '—' : `${(v * 100).toFixed(1)} %`);

/**
 * A per-second rate of a run's requests: none when nothing ended, and when requests ended in no measurable
 * time, that rather than a rate (never 0.00 for requests that did end).
 */
export function requestRate(v: number | undefined, s: Pick<LoadSummary, 'sent' | 'cancelled'>): string {
  if (v !== undefined) return rate(v, 'req/s');
  return s.sent - s.cancelled > 0 ? 'too short to measure' : '—';
}

export const LATENCIES = [
  ['ttftMs', 'Time to first token'],
  ['itlMs', 'Inter-token latency'],
  ['tpotMs', 'Time per output token'],
  ['e2eMs', 'End-to-end latency'],
] as const satisfies readonly (readonly [keyof LoadSummary, string])[];

export const STATS = ['mean', 'p50', 'p90', 'p99'] as const satisfies readonly (keyof Distribution)[];

/** One comparable figure of a summary: its label, value, text, and whether more is better. */
export interface Figure {
  label: string;
  value?: number;
  text: string;
  higherIsBetter: boolean;
}

export function figuresOf(s: LoadSummary): Figure[] {
  const figures: Figure[] = [
    { label: 'Success rate', value: s.successRate, text: percent(s.successRate), higherIsBetter: true },
    { label: 'Requests/s', value: s.requestsPerSec, text: requestRate(s.requestsPerSec, s), higherIsBetter: true },
    {
      label: 'Completed/s',
      value: s.completedPerSec,
      text: requestRate(s.completedPerSec, s),
      higherIsBetter: true,
    },
    {
      label: 'Output tokens/s',
      value: s.outputTokensPerSec,
      text: rate(s.outputTokensPerSec, 'tok/s'),
      higherIsBetter: true,
    },
    {
      label: 'Output tokens/s per request (mean)',
      value: s.outputTokensPerSecPerRequest.mean,
      text: rate(s.outputTokensPerSecPerRequest.mean, 'tok/s'),
      higherIsBetter: true,
    },
  ];
  for (const [key, label] of LATENCIES) {
    for (const stat of STATS)
      figures.push({ label: `${label} ${stat}`, value: s[key][stat], text: ms(s[key][stat]), higherIsBetter: false });
  }
  return figures;
}

/**
 * Which side is better for a figure, when they differ by more than 5 %: differences within noise are not
 * marked. undefined when either is missing or they are close.
 */
export function better(f: Figure, a: number | undefined, b: number | undefined): 'a' | 'b' | undefined {
  if (a === undefined || b === undefined || a === b) return undefined;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  if (scale === 0 || Math.abs(a - b) / scale < 0.05) return undefined;
  return a > b === f.higherIsBetter ? 'a' : 'b';
}

export { download } from '../../lib/download';
