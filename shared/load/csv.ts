/**
 * A load run as CSV (RFC 4180): one line per request, the figures the summary is computed from; or one line per
 * window of the run's clock, the figures over time (windows.ts).
 */
import { tpotOf, type LoadRow } from './stats';
import { ERROR_KINDS, type WindowStats } from './windows';

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

/**
 * A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to a spreadsheet, and a
 * gateway chooses the error type and reason (`=HYPERLINK(…)`): such a cell gets a leading `'` and is quoted, as
 * OWASP's CSV-injection guidance says. Numbers are ours and stay numbers, negative or not.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(Math.round(value * 1000) / 1000);
  const formula = FORMULA_START.test(value);
  const text = formula ? `'${value}` : value;
  return formula || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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

const WINDOW_COLUMNS = [
  'window_start_s',
  'window_end_s',
  'stage_index',
  'requests_ended',
  'completed',
  'requests_per_s',
  'output_tokens_per_s',
  'ttft_p50_ms',
  'ttft_p90_ms',
  'ttft_p99_ms',
  'e2e_p50_ms',
  'e2e_p90_ms',
  'e2e_p99_ms',
  ...ERROR_KINDS.map((k) => `errors_${k.replace('-', '_')}`),
] as const;

/** One line per window; then one column per numeric rate-limit header (its value at the window's end). */
export function windowsToCsv(stats: WindowStats): string {
  // Header names come from the gateway: inert as every text cell is.
  const lines = [[...WINDOW_COLUMNS.map(cell), ...stats.headers.map(cell)].join(',')];
  for (const w of stats.windows) {
    lines.push(
      [
        w.startMs / 1000,
        w.endMs / 1000,
        w.stage,
        w.ended,
        w.completed,
        w.requestsPerSec,
        w.outputTokensPerSec,
        w.ttftMs.p50,
        w.ttftMs.p90,
        w.ttftMs.p99,
        w.e2eMs.p50,
        w.e2eMs.p90,
        w.e2eMs.p99,
        ...ERROR_KINDS.map((k) => w.errors[k]),
        ...stats.headers.map((h) => w.rateLimits[h]),
      ]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
