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
