/**
 * Figures over time (docs/load.md "Over time"), pure: the run's clock cut into equal windows, and per window the
 * percentiles of TTFT and E2E, the throughput, the errors by kind and the rate-limit headers' values. A request
 * counts in the window in which it ended, as its point on the scatter does. The same code reads the live points
 * and a saved record's rows, so what a run showed while it went is what its record shows.
 */
import type { RateLimitSample } from '../contract/load';
import { targetAt, type LoadShape } from './shape';
import { percentile, type LoadRow } from './stats';

/** What a failed request was, for the errors-over-time lines. */
export type ErrorKind = 'rate-limited' | 'server' | 'timeout' | 'stream' | 'other';
export const ERROR_KINDS: readonly ErrorKind[] = ['rate-limited', 'server', 'timeout', 'stream', 'other'];
export const ERROR_KIND_LABELS: Record<ErrorKind, string> = {
  'rate-limited': 'rate-limited (429)',
  server: 'server (5xx)',
  timeout: 'timeout',
  stream: 'stream broken',
  other: 'other',
};

/** A finished request as the windows read it: a live point or a saved row (`pointOf`). */
export interface WindowSample {
  /** When it ended, ms on the run's clock. */
  t: number;
  ttftMs?: number;
  e2eMs: number;
  ok: boolean;
  cancelled?: boolean;
  err?: ErrorKind;
  out?: number;
}

/**
 * The kind of a failed request from its verdict, status and error type; undefined when it did not fail. An error
 * event names its type (Anthropic's `rate_limit_error`, `overloaded_error`, `api_error`; OpenAI's too), and a
 * network error after the response's status line broke the stream rather than the connection.
 */
export function errorKindOf(row: Pick<LoadRow, 'verdict' | 'status' | 'errorType'>): ErrorKind | undefined {
  switch (row.verdict) {
    case 'complete':
    case 'cancelled':
      return undefined;
    case 'http-error':
      if (row.status === 429) return 'rate-limited';
      return row.status !== undefined && row.status >= 500 ? 'server' : 'other';
    case 'error-event': {
      const type = row.errorType ?? '';
      if (/rate.?limit/i.test(type)) return 'rate-limited';
      return /overload|api_error|server|internal/i.test(type) ? 'server' : 'other';
    }
    case 'timeout':
      return 'timeout';
    case 'truncated':
      return 'stream';
    case 'network-error':
      return row.status === undefined ? 'other' : 'stream';
  }
}

/** A saved row as a window sample: it ended at its start plus its E2E. */
export function pointOf(row: LoadRow): WindowSample & { i: number; stage?: number } {
  const ok = row.verdict === 'complete';
  return {
    i: row.i,
    t: Math.round((row.startMs + row.e2eMs) * 100) / 100,
    ttftMs: row.ttftMs,
    e2eMs: row.e2eMs,
    ok,
    ...(row.verdict === 'cancelled' ? { cancelled: true } : {}),
    ...(row.stage !== undefined ? { stage: row.stage } : {}),
    ...(ok ? {} : { err: errorKindOf(row) }),
    ...(ok && row.outputTokens !== undefined ? { out: row.outputTokens } : {}),
  };
}

/** A chart holds at most this many windows: a longer run gets longer windows. */
export const MAX_WINDOWS = 300;
const WINDOW_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600] as const;

/** The shortest window of 1 s, 2 s, 5 s, … that cuts `spanMs` into at most MAX_WINDOWS. */
export function windowSizeMs(spanMs: number): number {
  const s = WINDOW_STEPS_S.find((w) => spanMs / (w * 1000) <= MAX_WINDOWS) ?? WINDOW_STEPS_S.at(-1)!;
  return s * 1000;
}

export interface Percentiles {
  p50?: number;
  p90?: number;
  p99?: number;
}

export interface LoadWindow {
  /** On the run's clock, ms; the last window ends with the run (or now, while it runs). */
  startMs: number;
  endMs: number;
  /** The shape's stage at the window's start; absent without a shape. */
  stage?: number;
  /** Requests that ended in it (completed or failed, not cancelled), and those that completed. */
  ended: number;
  completed: number;
  /** ended ÷ the window's length; output tokens of its completed requests ÷ its length. */
  requestsPerSec?: number;
  outputTokensPerSec?: number;
  /** Over the requests that completed in it, as the summary takes them over the whole run. */
  ttftMs: Percentiles;
  e2eMs: Percentiles;
  errors: Record<ErrorKind, number>;
  /** Each numeric rate-limit header's last value at the window's end (carried over windows with no sample). */
  rateLimits: Record<string, number | undefined>;
}

export interface WindowStats {
  windowMs: number;
  windows: LoadWindow[];
  /** Rate-limit headers whose every value is a number, in the order first seen: the lines the chart draws. */
  headers: string[];
}

function percentilesOf(values: number[]): Percentiles {
  if (values.length === 0) return {};
  values.sort((a, b) => a - b);
  return { p50: percentile(values, 50), p90: percentile(values, 90), p99: percentile(values, 99) };
}

/** Numeric rate-limit headers and their samples (a reset time written as a date is not a line). */
function numericHeaders(samples: readonly RateLimitSample[]): Map<string, { t: number; v: number }[]> {
  const byName = new Map<string, { t: number; v: number }[]>();
  const dropped = new Set<string>();
  for (const s of samples) {
    if (dropped.has(s.name)) continue;
    const v = s.value.trim() === '' ? NaN : Number(s.value);
    if (!Number.isFinite(v)) {
      dropped.add(s.name);
      byName.delete(s.name);
      continue;
    }
    const list = byName.get(s.name);
    if (list) list.push({ t: s.t, v });
    else byName.set(s.name, [{ t: s.t, v }]);
  }
  return byName;
}

interface Bucket {
  ended: number;
  completed: number;
  out: number;
  ttft: number[];
  e2e: number[];
  errors: Record<ErrorKind, number>;
}

const emptyBucket = (): Bucket => ({
  ended: 0,
  completed: 0,
  out: 0,
  ttft: [],
  e2e: [],
  errors: { 'rate-limited': 0, server: 0, timeout: 0, stream: 0, other: 0 },
});

function fill(buckets: Bucket[], points: readonly WindowSample[], windowMs: number): void {
  for (const p of points) {
    if (p.cancelled) continue;
    const b = buckets[Math.max(0, Math.min(buckets.length - 1, Math.floor(p.t / windowMs)))];
    b.ended++;
    if (p.ok) {
      b.completed++;
      b.e2e.push(p.e2eMs);
      if (p.ttftMs !== undefined) b.ttft.push(p.ttftMs);
      if (p.out !== undefined) b.out += p.out;
    } else b.errors[p.err ?? 'other']++;
  }
}

/**
 * The run cut into windows of `windowMs` (by default the shortest of 1 s, 2 s, 5 s… that keeps MAX_WINDOWS) from
 * 0 to `elapsedMs`. A window's rates divide by the time it covers: the last one runs to the run's end, a short
 * tail joining the window before it.
 */
export function windowStats(input: {
  points: readonly WindowSample[];
  rateLimits?: readonly RateLimitSample[];
  elapsedMs: number;
  windowMs?: number;
  shape?: LoadShape;
}): WindowStats {
  const { points, elapsedMs, shape } = input;
  let end = elapsedMs;
  for (const p of points) if (p.t > end) end = p.t;
  const windowMs = input.windowMs ?? windowSizeMs(end);
  let count = end > 0 ? Math.ceil(end / windowMs) : 0;
  // A tail shorter than half a window is mostly the requests in flight when the shape ended: divided by its own
  // sliver of time it drew a spike no traffic had, so it joins the window before it.
  if (count > 1 && end - (count - 1) * windowMs < windowMs / 2) count--;
  const buckets = Array.from({ length: count }, emptyBucket);
  fill(buckets, points, windowMs);
  const headers = numericHeaders(input.rateLimits ?? []);
  const cursor = new Map<string, number>();
  const windows = buckets.map((b, k): LoadWindow => {
    const startMs = k * windowMs;
    const endMs = k === count - 1 ? end : startMs + windowMs;
    const secs = (endMs - startMs) / 1000;
    const rateLimits: Record<string, number | undefined> = {};
    for (const [name, list] of headers) {
      let at = cursor.get(name) ?? -1;
      while (at + 1 < list.length && list[at + 1].t < endMs) at++;
      cursor.set(name, at);
      rateLimits[name] = at >= 0 ? list[at].v : undefined;
    }
    const stage = shape && shape.kind !== 'fixed' ? targetAt(shape, startMs / 1000)?.stage : undefined;
    return {
      startMs,
      endMs,
      ...(stage !== undefined ? { stage } : {}),
      ended: b.ended,
      completed: b.completed,
      requestsPerSec: secs > 0 ? b.ended / secs : undefined,
      outputTokensPerSec: secs > 0 ? b.out / secs : undefined,
      ttftMs: percentilesOf(b.ttft),
      e2eMs: percentilesOf(b.e2e),
      errors: b.errors,
      rateLimits,
    };
  });
  return { windowMs, windows, headers: [...headers.keys()] };
}
