/**
 * The load engine (docs/load.md): one request sent N times by C workers, each send read as a composer run is
 * (runs/repeated.ts: same request building, timeouts, stream parsing and verdicts), timed where its events
 * arrive in the host. The window gets deltas a few times a second, never per event.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import type {
  Ledger,
  LoadPoint,
  LoadProgress,
  LoadStartInput,
  LoadState,
  RateLimitSample,
} from '../../../shared/contract';
import { gapsOf, type LoadRow } from '../../../shared/load/stats';
import type { RepeatedRequest, RepeatedSend } from '../runs/repeated';
import { plural } from '../../../shared/plural';

export type LoadPlan = z.output<typeof LoadStartInput>;

/** How often the window hears about a running load at most. */
export const PROGRESS_INTERVAL_MS = 250;
/** Rate-limit samples kept per run (only changes are sampled; reset timestamps change on every request). */
export const RATE_LIMIT_SAMPLES_CAP = 5_000;

/** `anthropic-ratelimit-*`, `x-ratelimit-*`, `retry-after`: plain checks, as every header of every request is asked. */
const isRateLimitHeader = (name: string) =>
  name.startsWith('anthropic-ratelimit-') || name.startsWith('x-ratelimit-') || name === 'retry-after';

const round = (ms: number) => Math.round(ms * 100) / 100;

export interface LoadOutcome {
  state: LoadState;
  endReason: string;
  rows: LoadRow[];
  rateLimits: RateLimitSample[];
  request?: Ledger;
  overheadMs?: number;
}

export class LoadRun {
  readonly loadId = `load_${randomUUID()}`;
  readonly startedAt = new Date().toISOString();
  readonly done: Promise<LoadOutcome>;
  private state: LoadState = 'running';
  private endReason?: string;
  private readonly t0 = performance.now();
  private next = 0;
  private readonly rows: LoadRow[] = [];
  private readonly active = new Set<RepeatedSend>();
  private readonly stopper = new AbortController();
  private failed = 0;
  private overheadTotal = 0;
  private readonly rateLimits: RateLimitSample[] = [];
  private readonly lastHeader = new Map<string, string>();
  private pending: { points: LoadPoint[]; rateLimits: RateLimitSample[] } = { points: [], rateLimits: [] };

  constructor(
    private readonly request: RepeatedRequest,
    private readonly plan: LoadPlan,
    private readonly onProgress: (p: LoadProgress) => void,
  ) {
    this.done = this.run();
  }

  /** Stops sending and cancels every request in flight at once. */
  stop(why = 'Stopped by you'): boolean {
    if (this.state !== 'running') return false;
    this.state = 'stopping';
    this.endReason = `${why} after ${this.rows.length} of ${plural(this.plan.requests, 'request')} had ended.`;
    this.stopper.abort();
    for (const sent of this.active) sent.cancel();
    this.emit();
    return true;
  }

  private now(): number {
    return round(performance.now() - this.t0);
  }

  private async run(): Promise<LoadOutcome> {
    const cap = this.plan.durationCapS;
    const capTimer =
      cap === undefined
        ? undefined
        : setTimeout(() => this.stop(`The duration cap of ${cap} s was reached`), cap * 1000);
    const ticker = setInterval(() => this.emit(), PROGRESS_INTERVAL_MS);
    ticker.unref?.();
    try {
      const workers = Math.min(this.plan.concurrency, this.plan.requests);
      await Promise.all(Array.from({ length: workers }, () => this.worker()));
    } finally {
      clearInterval(ticker);
      if (capTimer) clearTimeout(capTimer);
    }
    const stopped = this.state === 'stopping';
    this.state = stopped ? 'stopped' : 'finished';
    this.endReason ??= this.plan.requests === 1 ? 'The 1 request ended.' : `All ${this.plan.requests} requests ended.`;
    this.rows.sort((a, b) => a.i - b.i);
    return {
      state: this.state,
      endReason: this.endReason,
      rows: this.rows,
      rateLimits: this.rateLimits,
      request: this.request.ledger,
      overheadMs: this.overheadMs(),
    };
  }

  /** The last push: called by the owner once the record is saved, so the window can fetch it at once. */
  finalProgress(): LoadProgress {
    return this.progress();
  }

  private overheadMs(): number | undefined {
    return this.rows.length ? Math.round((this.overheadTotal / this.rows.length) * 1000) / 1000 : undefined;
  }

  private async worker(): Promise<void> {
    while (this.state === 'running' && this.next < this.plan.requests) {
      const i = this.next++;
      if (this.plan.ratePerSec !== undefined) {
        // The i-th request starts no sooner than i / rate seconds into the run: a steady arrival rate.
        // A timer may fire a fraction of a millisecond early: wait again until the time has really come.
        const due = (i * 1000) / this.plan.ratePerSec;
        while (this.state === 'running' && performance.now() - this.t0 < due) {
          await this.sleep(Math.max(1, Math.ceil(due - (performance.now() - this.t0))));
        }
        if (this.state !== 'running') return;
      }
      try {
        await this.one(i);
      } catch (err) {
        // The profile went away mid-run (deleted in another window): nothing more can be sent.
        this.stop(`A request could not be sent (${err instanceof Error ? err.message : String(err)})`);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.stopper.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  private async one(i: number): Promise<void> {
    const enter = performance.now();
    const startMs = this.now();
    const sent = this.request.send((headers) => {
      const s = performance.now();
      this.sampleRateLimits(headers);
      this.overheadTotal += performance.now() - s;
    });
    this.active.add(sent);
    this.overheadTotal += performance.now() - enter;
    const { result, contentTimes } = await sent.done;
    const s = performance.now();
    this.active.delete(sent);
    const row: LoadRow = {
      i,
      startMs,
      verdict: result.verdict,
      status: result.status,
      ttftMs: result.ttftMs,
      e2eMs: result.totalMs,
      inputTokens: result.usage.inputTotal,
      outputTokens: result.usage.output,
      cacheReadTokens: result.usage.inputCached,
      cacheWriteTokens: result.usage.inputCacheWrite,
      itlMs: result.verdict === 'complete' ? gapsOf(contentTimes, round) : [],
      reason: result.reason,
      errorType: result.errorType,
    };
    this.rows.push(row);
    if (row.verdict !== 'complete' && row.verdict !== 'cancelled') this.failed++;
    this.pending.points.push({
      i,
      t: this.now(),
      ttftMs: row.ttftMs,
      e2eMs: row.e2eMs,
      ok: row.verdict === 'complete',
      ...(row.verdict === 'cancelled' ? { cancelled: true } : {}),
    });
    this.overheadTotal += performance.now() - s;
  }

  private sampleRateLimits(headers: Record<string, string>): void {
    const t = this.now();
    for (const name in headers) {
      if (!isRateLimitHeader(name)) continue;
      const value = headers[name];
      if (this.lastHeader.get(name) === value) continue;
      if (this.rateLimits.length >= RATE_LIMIT_SAMPLES_CAP) return;
      this.lastHeader.set(name, value);
      const sample = { t, name, value };
      this.rateLimits.push(sample);
      this.pending.rateLimits.push(sample);
    }
  }

  private progress(): LoadProgress {
    const { points, rateLimits } = this.pending;
    this.pending = { points: [], rateLimits: [] };
    return {
      loadId: this.loadId,
      state: this.state,
      total: this.plan.requests,
      done: this.rows.length,
      failed: this.failed,
      inFlight: this.active.size,
      elapsedMs: this.now(),
      points,
      rateLimits,
      overheadMs: this.overheadMs(),
    };
  }

  private emit(): void {
    this.onProgress(this.progress());
  }
}
