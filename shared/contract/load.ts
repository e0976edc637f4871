/**
 * Load runs (docs/load.md): one request sent N times at concurrency C, measured in the host. The window gets
 * aggregates a few times a second while a run goes, and the whole record (summary and per-request rows) once
 * it ends; records are kept in the data dir's `load-runs/` folder, one file per run.
 */
import { z } from 'zod';
import { defineCall } from './define';
import { ProtocolSchema, type Ledger } from './runs';
import type { ErrorKind } from '../load/windows';
import type { LoadRow, LoadSummary } from '../load/stats';
import { LoadShapeSchema, type LoadShape } from '../load/shape';
import type { ProtocolId } from '../protocols/types';

export const LOAD_LIMITS = { requests: 10_000, concurrency: 64, ratePerSec: 1_000, durationS: 3_600 } as const;
/** Above this many requests, a gateway other than the Demo gateway needs the user's go-ahead: it costs money. */
export const LOAD_CONFIRM_ABOVE = 100;

export const LoadStartInput = z
  .object({
    profileId: z.string().min(1).max(100),
    protocol: ProtocolSchema,
    body: z.record(z.string(), z.unknown()),
    /** N × C: how many to send. A timed shape: the most it sends (it ends with its time or this, first). */
    requests: z.number().int().min(1).max(LOAD_LIMITS.requests),
    /** N × C: the workers. A timed shape follows its own; this is its most in flight, as shown (peak or cap). */
    concurrency: z.number().int().min(1).max(LOAD_LIMITS.concurrency),
    /** Requests started per second at most; absent: as fast as the concurrency allows. */
    ratePerSec: z.number().positive().max(LOAD_LIMITS.ratePerSec).optional(),
    /** Stop (cancelling what is in flight) after this many seconds. */
    durationCapS: z.number().positive().max(LOAD_LIMITS.durationS).optional(),
    /** How the traffic goes over time (shared/load/shape.ts); N × C by default. */
    shape: LoadShapeSchema.default({ kind: 'fixed' }),
    /** Where the request came from, as shown in the list (e.g. "Messages composer", a preset's name). */
    source: z.string().max(200).default('composer'),
  })
  .strict();
export type LoadStartInput = z.input<typeof LoadStartInput>;

export type LoadState = 'running' | 'stopping' | 'finished' | 'stopped';

/** A scatter point: one finished request on the run's clock. */
export interface LoadPoint {
  i: number;
  /** When it ended, ms since the run started. */
  t: number;
  ttftMs?: number;
  e2eMs: number;
  ok: boolean;
  /** Stopped before it ended (Stop, the duration cap): neither a success nor a failure. */
  cancelled?: boolean;
  /** The shape's stage it was sent in (0-based). */
  stage?: number;
  /** Its error's kind, when it failed (shared/load/windows.ts). */
  err?: ErrorKind;
  /** Output tokens, when it completed and the stream reported them. */
  out?: number;
}

/** A rate-limit header's value when it changed, ms since the run started. */
export interface RateLimitSample {
  t: number;
  name: string;
  value: string;
}

/** Pushed at most a few times a second while a run goes, and once when it ends: deltas since the last push. */
export interface LoadProgress {
  loadId: string;
  state: LoadState;
  total: number;
  done: number;
  failed: number;
  inFlight: number;
  elapsedMs: number;
  points: LoadPoint[];
  rateLimits: RateLimitSample[];
  /** Mean time the engine itself spent per finished request (scheduling, timing, bookkeeping), in ms. */
  overheadMs?: number;
  /** A timed shape: the stage running now, as the status shows it ("Stage 2 of 3 · 16 at once"). */
  stage?: { index: number; label: string };
  /** A timed shape: its length in seconds. */
  durationS?: number;
  /** Open-loop arrivals not sent because the in-flight cap was reached (docs/load.md "Shapes"). */
  skipped?: number;
}

export interface LoadConfig {
  requests: number;
  concurrency: number;
  ratePerSec?: number;
  durationCapS?: number;
  /** Absent from runs saved before shapes: N × C. */
  shape?: LoadShape;
}

export interface LoadRecordSummary {
  loadId: string;
  startedAt: string;
  state: LoadState;
  /** What ended it, in words: all requests ended, stopped by you, the duration cap, the window closing. */
  endReason: string;
  profileName: string;
  protocol: ProtocolId;
  model?: string;
  source: string;
  config: LoadConfig;
  summary: LoadSummary;
  overheadMs?: number;
  /** Set on a run imported from Locust's CSV (docs/load.md "Locust"); absent on the app's own runs. */
  engine?: 'locust';
}

/** A whole load run as saved: no key anywhere (the ledger's headers are redacted). */
export interface LoadRecord extends LoadRecordSummary {
  /** The first request's ledger: the request as sent, key redacted. */
  request?: Ledger;
  rows: LoadRow[];
  rateLimits: RateLimitSample[];
  /** Open-loop arrivals skipped because LOAD_LIMITS.concurrency requests were in flight (timed shapes). */
  skipped?: number;
}

const LoadId = z.object({ loadId: z.string().regex(/^load_[A-Za-z0-9-]{1,80}$/) }).strict();

export const loadCalls = {
  'load:start': defineCall<{ loadId: string }>()(LoadStartInput),
  'load:stop': defineCall<{ stopped: boolean }>()(LoadId),
  'load:list': defineCall<{ runs: LoadRecordSummary[] }>()(z.object({}).strict()),
  'load:get': defineCall<LoadRecord>()(LoadId),
  'load:delete': defineCall<{ deleted: boolean }>()(LoadId),
};
