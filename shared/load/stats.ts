/**
 * The load figures, pure: percentiles, per-request metrics and the run's summary, with the definitions of the
 * serving benchmarks (vLLM's benchmark_serving, LLMPerf, GenAI-Perf) as written in docs/load.md. Usage is read
 * from the stream; a request whose stream reported no output tokens has no TPOT and adds no tokens.
 */
import type { Verdict } from '../protocols/types';
import quickselect from 'quickselect';

/** One request of a load run, as measured in the host. Times are ms; `startMs` is on the run's clock. */
export interface LoadRow {
  /** 0-based order in which the request was sent. */
  i: number;
  startMs: number;
  verdict: Verdict;
  status?: number;
  /** Time to first token: request sent → first event carrying content. */
  ttftMs?: number;
  /** End-to-end latency: request sent → verdict. */
  e2eMs: number;
  inputTokens?: number;
  outputTokens?: number;
  /** Cache reads and writes inside inputTokens, as reported: what the request cost depends on them. */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Gaps between successive content events after the first (inter-token latency samples). */
  itlMs: number[];
  /** Why it ended, in words (the run's reason), for error examples. */
  reason: string;
  /** The error's type, when the gateway named one. */
  errorType?: string;
  /** The shape's stage it was sent in (0-based; absent from runs saved before shapes: stage 0). */
  stage?: number;
}

export interface Distribution {
  count: number;
  mean?: number;
  p50?: number;
  p90?: number;
  p99?: number;
}

export type ErrorClass = 'http' | 'error-event' | 'truncated' | 'timeout' | 'network';

export interface ErrorGroup {
  /** e.g. "HTTP 429", "error event", "truncated". */
  key: string;
  cls: ErrorClass;
  count: number;
  /** Up to three: the request's index and its reason. */
  examples: { i: number; reason: string }[];
}

export interface LoadSummary {
  sent: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** completed ÷ (sent − cancelled); undefined when every request was cancelled. */
  successRate?: number;
  /** First request sent → last verdict, in ms. */
  durationMs: number;
  /** Requests that ended (completed or failed, not cancelled) ÷ duration; undefined when no time passed. */
  requestsPerSec?: number;
  /** Completed requests ÷ duration (vLLM's request throughput). Absent from runs saved before it was added. */
  completedPerSec?: number;
  outputTokensPerSec?: number;
  /** Mean over completed requests reporting output tokens of output ÷ E2E. */
  outputTokensPerSecPerRequest: Distribution;
  totalOutputTokens: number;
  ttftMs: Distribution;
  itlMs: Distribution;
  tpotMs: Distribution;
  e2eMs: Distribution;
  errors: ErrorGroup[];
}

/**
 * The q-th percentile (0–100) of ascending `sorted`, interpolating linearly between closest ranks — numpy's
 * default, which benchmark_serving uses.
 */
export function percentile(sorted: readonly number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const pos = ((sorted.length - 1) * q) / 100;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * Count, mean and the three percentiles as `percentile` defines them, found by selection rather than a sort: a
 * load of 2,000 requests has about 80,000 ITL samples, which took 7–13 ms to copy and sort, on the load's clock.
 */
export function distribution(values: readonly number[]): Distribution {
  return distributionOf(Float64Array.from(values));
}

/** `distribution` of values already in a typed array, which it reorders. */
function distributionOf(a: Float64Array): Distribution {
  const n = a.length;
  if (n === 0) return { count: 0 };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i];
  return {
    count: n,
    mean: sum / n,
    p50: selectedPercentile(a, 50),
    p90: selectedPercentile(a, 90),
    p99: selectedPercentile(a, 99),
  };
}

/** `percentile` of `a` as if sorted; reorders `a`. */
function selectedPercentile(a: Float64Array, q: number): number {
  const pos = ((a.length - 1) * q) / 100;
  const lo = Math.floor(pos);
  const low = select(a, lo);
  if (lo === pos) return low;
  // After selecting rank lo, every value after it is at least as large: the next rank is their least.
  let high = a[lo + 1];
  for (let i = lo + 2; i < a.length; i++) if (a[i] < high) high = a[i];
  return low + (high - low) * (pos - lo);
}

/** The k-th smallest value (0-based), moved to `a[k]` with nothing larger before it and nothing smaller after. */
function select(a: Float64Array, k: number): number {
  quickselect(a as unknown as number[], k);
  return a[k];
}

/** Time per output token after the first: (E2E − TTFT) ÷ (output tokens − 1); needs two tokens and a TTFT. */
export function tpotOf(row: Pick<LoadRow, 'e2eMs' | 'ttftMs' | 'outputTokens'>): number | undefined {
  if (row.ttftMs === undefined || row.outputTokens === undefined || row.outputTokens < 2) return undefined;
  return (row.e2eMs - row.ttftMs) / (row.outputTokens - 1);
}

/**
 * Gaps between successive times: the ITL samples of one request, given its content events' arrival times, each
 * passed through `as` (the engine rounds them as it rounds every time it keeps).
 */
export function gapsOf(times: readonly number[], as: (gap: number) => number = (gap) => gap): number[] {
  const gaps: number[] = [];
  for (let k = 1; k < times.length; k++) gaps.push(as(times[k] - times[k - 1]));
  return gaps;
}

export function errorClassOf(verdict: Verdict): ErrorClass | undefined {
  switch (verdict) {
    case 'http-error':
      return 'http';
    case 'error-event':
    case 'truncated':
    case 'timeout':
      return verdict;
    case 'network-error':
      return 'network';
    default:
      return undefined;
  }
}

function errorKey(cls: ErrorClass, row: LoadRow): string {
  if (cls === 'http') return row.status === undefined ? 'HTTP error' : `HTTP ${row.status}`;
  return cls === 'error-event' ? 'error event' : cls;
}

export function errorGroups(rows: readonly LoadRow[]): ErrorGroup[] {
  const groups = new Map<string, ErrorGroup>();
  for (const row of rows) {
    const cls = errorClassOf(row.verdict);
    if (!cls) continue;
    const key = errorKey(cls, row);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, cls, count: 0, examples: [] }));
    g.count++;
    if (g.examples.length < 3) g.examples.push({ i: row.i, reason: row.reason });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** The run's summary from its rows alone: everything shown in Load summary can be checked against them. */
export function summarize(rows: readonly LoadRow[]): LoadSummary {
  const done = rows.filter((r) => r.verdict === 'complete');
  const cancelled = rows.filter((r) => r.verdict === 'cancelled').length;
  const first = rows.length ? Math.min(...rows.map((r) => r.startMs)) : 0;
  const last = rows.length ? Math.max(...rows.map((r) => r.startMs + r.e2eMs)) : 0;
  const durationMs = last - first;
  const perSec = (n: number) => (durationMs > 0 ? (n * 1000) / durationMs : undefined);
  const counted = done.filter((r) => r.outputTokens !== undefined);
  const totalOutputTokens = counted.reduce((s, r) => s + r.outputTokens!, 0);
  const tpots = done.map(tpotOf).filter((v): v is number => v !== undefined);
  // Every ITL sample of the run (about 40 a request) straight into the array the percentiles are selected in.
  let samples = 0;
  for (const r of done) samples += r.itlMs.length;
  const itl = new Float64Array(samples);
  let at = 0;
  for (const r of done) for (const g of r.itlMs) itl[at++] = g;
  const ended = rows.length - cancelled;
  return {
    sent: rows.length,
    completed: done.length,
    failed: ended - done.length,
    cancelled,
    successRate: ended > 0 ? done.length / ended : undefined,
    durationMs,
    requestsPerSec: ended > 0 ? perSec(ended) : undefined,
    completedPerSec: ended > 0 ? perSec(done.length) : undefined,
    outputTokensPerSec: counted.length ? perSec(totalOutputTokens) : undefined,
    outputTokensPerSecPerRequest: distribution(
      counted.filter((r) => r.e2eMs > 0).map((r) => (r.outputTokens! * 1000) / r.e2eMs),
    ),
    totalOutputTokens,
    ttftMs: distribution(done.map((r) => r.ttftMs).filter((v): v is number => v !== undefined)),
    itlMs: distributionOf(itl),
    tpotMs: distribution(tpots),
    e2eMs: distribution(done.map((r) => r.e2eMs)),
    errors: errorGroups(rows),
  };
}
