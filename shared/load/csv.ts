/** Per-request rows as CSV (RFC 4180): one line per request, the figures the summary is computed from. */
import { tpotOf, type LoadRow } from './stats';

const COLUMNS = [
  'request',
  'start_ms',
  'verdict',
  'status',
  'ttft_ms',
  'e2e_ms',
  'tpot_ms',
  'itl_mean_ms',
  'itl_count',
  'input_tokens',
  'output_tokens',
  'error_type',
  'reason',
] as const;

function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = typeof value === 'number' ? String(Math.round(value * 1000) / 1000) : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function rowsToCsv(rows: readonly LoadRow[]): string {
  const lines = [COLUMNS.join(',')];
  for (const r of rows) {
    const itlMean = r.itlMs.length ? r.itlMs.reduce((s, v) => s + v, 0) / r.itlMs.length : undefined;
    lines.push(
      [
        r.i,
        r.startMs,
        r.verdict,
        r.status,
        r.ttftMs,
        r.e2eMs,
        tpotOf(r),
        itlMean,
        r.itlMs.length,
        r.inputTokens,
        r.outputTokens,
        r.errorType,
        r.reason,
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
