/**
 * The load engine (docs/load.md): one request sent N times by C workers, or sent as a timed shape asks (a ramp,
 * stages, a soak: shared/load/shape.ts), each send read as a composer run is (runs/repeated.ts: same request
 * building, timeouts, stream parsing and verdicts), timed where its events arrive in the host. The window gets
 * deltas a few times a second, never per event.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import {
  LOAD_LIMITS,
  type Ledger,
  type LoadPoint,
  type LoadProgress,
  type LoadStartInput,
  type LoadState,
  type RateLimitSample,
} from '../../../shared/contract';
import { gapsOf, type LoadRow } from '../../../shared/load/stats';
import { pointOf } from '../../../shared/load/windows';
import {
  arrivalGapMs,
  arrivalOf,
  openSegments,
  shapeDurationS,
  stageEndsS,
  targetAt,
  type LoadShape,
} from '../../../shared/load/shape';
import type { RepeatedRequest, RepeatedSend } from '../runs/repeated';
import { plural } from '../../../shared/plural';

export type LoadPlan = z.output<typeof LoadStartInput>;

/** How often the window hears about a running load at most. */
export const PROGRESS_INTERVAL_MS = 250;
/** Rate-limit samples kept per run (only changes are sampled; reset timestamps change on every request). */
export const RATE_LIMIT_SAMPLES_CAP = 5_000;
/** How often a ramp's worker count is brought to its line (stage starts also get a timer of their own). */
export const SHAPE_TICK_MS = 25;

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
  skipped?: number;
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
  private readonly shape: LoadShape;
  /** A timed shape: closed-loop workers alive, arrivals skipped at the cap, and whether sending is over. */
  private workers = 0;
  private skipped = 0;
  private sendingOver = false;
  private readonly sendingEnd = new AbortController();
  private resolveOver?: () => void;

  constructor(
    private readonly request: RepeatedRequest,
    private readonly plan: LoadPlan,
    private readonly onProgress: (p: LoadProgress) => void,
  ) {
    this.shape = plan.shape ?? { kind: 'fixed' };
    this.done = this.run();
  }

  private get timed(): boolean {
    return this.shape.kind !== 'fixed';
  }

  /** Stops sending and cancels every request in flight at once. */
  stop(why = 'Stopped by you'): boolean {
    if (this.state !== 'running') return false;
    this.state = 'stopping';
    this.endReason = this.timed
      ? `${why} after ${plural(this.rows.length, 'request')} had ended.`
      : `${why} after ${this.rows.length} of ${plural(this.plan.requests, 'request')} had ended.`;
    this.stopper.abort();
    this.endSending();
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
      if (this.timed) await this.followShape();
      else {
        const workers = Math.min(this.plan.concurrency, this.plan.requests);
        await Promise.all(Array.from({ length: workers }, () => this.worker()));
      }
    } finally {
      clearInterval(ticker);
      if (capTimer) clearTimeout(capTimer);
    }
    const stopped = this.state === 'stopping';
    this.state = stopped ? 'stopped' : 'finished';
    this.endReason ??= this.timed
      ? this.timedEndReason()
      : this.plan.requests === 1
        ? 'The 1 request ended.'
        : `All ${this.plan.requests} requests ended.`;
    this.rows.sort((a, b) => a.i - b.i);
    return {
      state: this.state,
      endReason: this.endReason,
      rows: this.rows,
      rateLimits: this.rateLimits,
      request: this.request.ledger,
      overheadMs: this.overheadMs(),
      ...(this.timed ? { skipped: this.skipped } : {}),
    };
  }

  private timedEndReason(): string {
    const ended = `${plural(this.rows.length, 'request')} ended`;
    const skipped = this.skipped
      ? `; ${plural(this.skipped, 'arrival')} skipped at the cap of ${LOAD_LIMITS.concurrency} in flight`
      : '';
    const d = shapeDurationS(this.shape);
    return this.next >= this.plan.requests
      ? `The limit of ${this.plan.requests} requests was reached before the shape's ${d} s ended; ${ended}${skipped}.`
      : `The shape's ${d} s ended; ${ended}${skipped}.`;
  }

  /**
   * A timed shape: closed-loop workers brought to the shape's concurrency as it changes (one retires when its
   * request ends, never cancelled), open-loop arrivals on their own schedule. Sending ends with the shape's
   * time, the request limit or Stop; the requests in flight then end as they would.
   */
  private async followShape(): Promise<void> {
    const sends: Promise<void>[] = [];
    const over = new Promise<void>((resolve) => (this.resolveOver = resolve));
    if (this.sendingOver) return;
    const endTimer = setTimeout(() => this.endSending(), shapeDurationS(this.shape)! * 1000);
    const spawn = () => {
      const target = this.sendingOver ? undefined : targetAt(this.shape, this.elapsedS());
      while (target?.concurrency !== undefined && this.workers < target.concurrency) {
        this.workers++;
        sends.push(this.shapeWorker());
      }
    };
    const clock = this.shape.kind === 'ramp' ? setInterval(spawn, SHAPE_TICK_MS) : undefined;
    const starts: NodeJS.Timeout[] = [];
    // A timer may fire a fraction of a millisecond early, when the shape still asks for the last stage's workers.
    const startAt = (s: number) => {
      const wait = s * 1000 - (performance.now() - this.t0);
      if (wait > 0) starts.push(setTimeout(() => startAt(s), Math.max(1, Math.ceil(wait))));
      else spawn();
    };
    for (const s of [0, ...stageEndsS(this.shape).slice(0, -1)]) startAt(s);
    const arrivals = this.arrivals(sends);
    await over;
    clearTimeout(endTimer);
    if (clock) clearInterval(clock);
    for (const t of starts) clearTimeout(t);
    await arrivals;
    await Promise.all(sends);
  }

  /** No more sends: the shape's time is up, the request limit reached, or Stop. */
  private endSending(): void {
    this.sendingOver = true;
    this.sendingEnd.abort();
    this.resolveOver?.();
  }

  private elapsedS(): number {
    return (performance.now() - this.t0) / 1000;
  }

  /** The next request's index, or undefined when sending is over; the last one allowed ends sending. */
  private take(): number | undefined {
    if (this.sendingOver || this.state !== 'running' || this.next >= this.plan.requests) return undefined;
    const i = this.next++;
    if (this.next >= this.plan.requests) this.endSending();
    return i;
  }

  /** A closed-loop worker of a timed shape: it retires between requests when the shape wants fewer. */
  private async shapeWorker(): Promise<void> {
    for (;;) {
      const target = this.sendingOver ? undefined : targetAt(this.shape, this.elapsedS());
      const i = target?.concurrency !== undefined && this.workers <= target.concurrency ? this.take() : undefined;
      if (i === undefined) {
        this.workers--;
        return;
      }
      await this.send(i, target!.stage);
    }
  }

  /**
   * Open-loop arrivals, due on the run's clock (a late timer sends what is due at once, so the count holds).
   * An arrival that finds LOAD_LIMITS.concurrency requests in flight is skipped and counted, not queued: a
   * queue would send it late and time a wait the gateway never caused.
   */
  private async arrivals(sends: Promise<void>[]): Promise<void> {
    const arrival = arrivalOf(this.shape);
    for (const seg of openSegments(this.shape)) {
      let due = seg.startMs + (arrival === 'poisson' ? arrivalGapMs(arrival, seg.ratePerSec!) : 0);
      while (due < seg.endMs) {
        while (!this.sendingOver && performance.now() - this.t0 < due) {
          await this.sleep(Math.max(1, Math.ceil(due - (performance.now() - this.t0))), this.sendingEnd.signal);
        }
        if (this.active.size >= LOAD_LIMITS.concurrency) {
          if (this.sendingOver) return;
          this.skipped++;
        } else {
          const i = this.take();
          if (i === undefined) return;
          sends.push(this.send(i, seg.stage));
        }
        due += arrivalGapMs(arrival, seg.ratePerSec!);
      }
    }
  }

  private async send(i: number, stage: number): Promise<void> {
    try {
      await this.one(i, stage);
    } catch (err) {
      this.stop(`A request could not be sent (${err instanceof Error ? err.message : String(err)})`);
    }
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

  private sleep(ms: number, signal = this.stopper.signal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      // The listener goes with the timer: a soak sleeps once per arrival, thousands of times on one signal.
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private async one(i: number, stage = 0): Promise<void> {
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
      stage,
    };
    this.rows.push(row);
    if (row.verdict !== 'complete' && row.verdict !== 'cancelled') this.failed++;
    this.pending.points.push(pointOf(row));
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
    const base = {
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
    if (!this.timed) return base;
    const target = this.sendingOver ? undefined : targetAt(this.shape, this.elapsedS());
    return {
      ...base,
      // A timed shape has no N: the requests sent so far are the whole of the progress bar.
      total: this.rows.length + this.active.size,
      durationS: shapeDurationS(this.shape),
      skipped: this.skipped,
      ...(target ? { stage: { index: target.stage, label: target.label } } : {}),
    };
  }

  private emit(): void {
    this.onProgress(this.progress());
  }
}
