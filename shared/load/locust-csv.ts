/**
 * "Import Locust results" (docs/load.md "Locust"): Locust's CSV output of an exported locustfile read back as a
 * load summary, the figures the app shows where Locust has them and none where it has not. Pure.
 *
 * The exported file reports each completed request as an `E2E` entry (its output tokens as the content size),
 * each failed one as `E2E (failed)` with its class in the error text, and `TTFT`, `ITL` and `TPOT` as entries of
 * their own, all with the protocol as Type. Locust keeps each entry's count, mean and percentiles (its
 * percentiles round a time above 100 ms to 2 significant digits); it keeps no single request.
 */
import type { LoadConfig } from '../contract/load';
import { PROTOCOL_IDS, type ProtocolId } from '../protocols/types';
import type { Distribution, ErrorClass, ErrorGroup, LoadSummary } from './stats';

export interface LocustFiles {
  /** PREFIX_stats.csv: required. */
  stats: string;
  /** PREFIX_stats_history.csv: when the run started and how many users it reached. */
  history?: string;
  /** PREFIX_failures.csv: the errors by class. */
  failures?: string;
}

export interface LocustResults {
  protocol?: ProtocolId;
  /** The first line of the history, when there is one. */
  startedAt?: string;
  config: LoadConfig;
  summary: LoadSummary;
}

export type LocustParse = { ok: true; value: LocustResults } | { ok: false; error: string };

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length) endRow();
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

class CsvProblem extends Error {}

/** The rows of one file as records by column name, after checking that the columns it needs are there. */
function table(text: string, file: string, needed: readonly string[]): Record<string, string>[] {
  const [head, ...rows] = csvRows(text.replace(/^\uFEFF/, ''));
  const missing = needed.filter((c) => !head?.includes(c));
  if (!head || missing.length)
    throw new CsvProblem(`This is not Locust’s ${file}: it has no column ${missing.map((m) => `“${m}”`).join(', ')}.`);
  return rows.map((r) => Object.fromEntries(head.map((h, k) => [h, r[k] ?? ''])));
}

function number(row: Record<string, string>, column: string, file: string): number | undefined {
  const raw = row[column]?.trim();
  if (raw === undefined || raw === '' || raw === 'N/A') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new CsvProblem(`${file}: “${raw.slice(0, 40)}” in column “${column}” is not a number.`);
  return n;
}

const STATS_COLUMNS = ['Type', 'Name', 'Request Count', 'Failure Count', 'Average Response Time'] as const;
const PERCENTILE_COLUMNS = ['50%', '90%', '99%', 'Requests/s', 'Average Content Size'] as const;

function distributionOf(row: Record<string, string> | undefined): Distribution {
  const count = row ? (number(row, 'Request Count', 'stats') ?? 0) - (number(row, 'Failure Count', 'stats') ?? 0) : 0;
  if (!row || count <= 0) return { count: 0 };
  return {
    count,
    mean: number(row, 'Average Response Time', 'stats'),
    p50: number(row, '50%', 'stats'),
    p90: number(row, '90%', 'stats'),
    p99: number(row, '99%', 'stats'),
  };
}

const CLASSES: [RegExp, ErrorClass, (m: RegExpMatchArray) => string][] = [
  [/^HTTP (\d{3})/, 'http', (m) => `HTTP ${m[1]}`],
  [/^error event/, 'error-event', () => 'error event'],
  [/^truncated/, 'truncated', () => 'truncated'],
  [/^timeout/, 'timeout', () => 'timeout'],
  [/^network/, 'network', () => 'network'],
];

/** Errors by class from the failures file: its text starts with the class the locustfile gave it. */
function errorsOf(text: string): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  for (const row of table(text, 'failures CSV (…_failures.csv)', ['Error', 'Occurrences'])) {
    const error = row.Error.trim();
    const count = number(row, 'Occurrences', 'failures') ?? 0;
    const hit = CLASSES.map(([re, cls, key]) => [error.match(re), cls, key] as const).find(([m]) => m);
    const [key, cls] = hit ? [hit[2](hit[0]!), hit[1]] : [error.slice(0, 60) || 'error', 'network' as const];
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, cls, count: 0, examples: [] }));
    g.count += count;
    // Locust counts the same text once: an example has no request number (-1).
    if (g.examples.length < 3) g.examples.push({ i: -1, reason: error.slice(0, 300) });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

function historyOf(text: string): { startedAt?: string; peakUsers: number; spanMs: number } {
  const rows = table(text, 'stats history CSV (…_stats_history.csv)', ['Timestamp', 'User Count']);
  const times = rows.map((r) => number(r, 'Timestamp', 'stats history')).filter((t) => t !== undefined);
  const users = rows.map((r) => number(r, 'User Count', 'stats history') ?? 0);
  if (!times.length) return { peakUsers: Math.max(0, ...users), spanMs: 0 };
  const first = Math.min(...times);
  return {
    startedAt: new Date(first * 1000).toISOString(),
    peakUsers: Math.max(0, ...users),
    spanMs: (Math.max(...times) - first) * 1000,
  };
}

function summaryOf(rows: Record<string, string>[], errors: ErrorGroup[], historySpanMs: number): LoadSummary {
  const entry = (name: string) => rows.find((r) => r.Name === name);
  const done = entry('E2E');
  const failedRow = entry('E2E (failed)');
  const completed = done ? (number(done, 'Request Count', 'stats') ?? 0) : 0;
  const failed = failedRow ? (number(failedRow, 'Request Count', 'stats') ?? 0) : 0;
  const sent = completed + failed;
  // Locust's Requests/s of an entry is its count over the run's time (start → last report): the run's duration.
  const timed = [done, failedRow].find((r) => r && (number(r, 'Requests/s', 'stats') ?? 0) > 0);
  const durationMs = timed
    ? ((number(timed, 'Request Count', 'stats') ?? 0) * 1000) / number(timed, 'Requests/s', 'stats')!
    : historySpanMs;
  const perSec = (n: number) => (durationMs > 0 ? (n * 1000) / durationMs : undefined);
  const meanTokens = done ? (number(done, 'Average Content Size', 'stats') ?? 0) : 0;
  const totalOutputTokens = Math.round(meanTokens * completed);
  return {
    sent,
    completed,
    failed,
    cancelled: 0,
    successRate: sent > 0 ? completed / sent : undefined,
    durationMs,
    requestsPerSec: sent > 0 ? perSec(sent) : undefined,
    completedPerSec: sent > 0 ? perSec(completed) : undefined,
    // No usage reported reads as 0 in Locust's content size: "not reported", as the app says it.
    outputTokensPerSec: totalOutputTokens > 0 ? perSec(totalOutputTokens) : undefined,
    outputTokensPerSecPerRequest: { count: 0 },
    totalOutputTokens,
    ttftMs: distributionOf(entry('TTFT')),
    itlMs: distributionOf(entry('ITL')),
    tpotMs: distributionOf(entry('TPOT')),
    e2eMs: distributionOf(done),
    errors,
  };
}

export function parseLocustCsv(files: LocustFiles): LocustParse {
  try {
    const rows = table(files.stats, 'stats CSV (…_stats.csv)', [...STATS_COLUMNS, ...PERCENTILE_COLUMNS]);
    if (!rows.some((r) => r.Name === 'E2E' || r.Name === 'E2E (failed)'))
      throw new CsvProblem(
        'This Locust stats CSV has no E2E entry: it is not the output of a locustfile exported by “Export as Locust”.',
      );
    const history = files.history ? historyOf(files.history) : undefined;
    const errors = files.failures ? errorsOf(files.failures) : [];
    const summary = summaryOf(rows, errors, history?.spanMs ?? 0);
    const type = rows.find((r) => r.Name === 'E2E' || r.Name === 'E2E (failed)')!.Type;
    const protocol = (PROTOCOL_IDS as readonly string[]).includes(type) ? (type as ProtocolId) : undefined;
    return {
      ok: true,
      value: {
        protocol,
        startedAt: history?.startedAt,
        config: { requests: summary.sent, concurrency: history?.peakUsers ?? 0 },
        summary,
      },
    };
  } catch (err) {
    if (err instanceof CsvProblem) return { ok: false, error: err.message };
    throw err;
  }
}
