/**
 * Probe jobs: a set of matrix cells run in the background with bounded concurrency shared by every job, so
 * "probe everything" cannot flood a gateway. Rate-limit aware, per model: a 429 pauses that profile × model
 * until the gateway's retry-after while other models go on; then one cell of it goes first, alone, and only
 * its success lets the model's other cells follow. After `maxAttempts` 429s in a row for the model — or when
 * the gateway asks for a longer wait than the caller allows — the cell and that model's other queued cells are
 * recorded inconclusive, without waiting or sending anything more. So a model that keeps rate-limiting costs
 * about `maxAttempts` waits, not that many per cell. Cancelling stops the runs in flight and records nothing
 * for unfinished cells.
 */
import { randomUUID } from 'node:crypto';
import type { CapabilityProgress, ProbeJobView } from '../../../shared/contract';
import type { CapabilityId, CapabilityResult } from '../../../shared/capabilities';
import type { ProtocolId } from '../../../shared/protocols/types';
import { abortableSleep, fmtSeconds, ProbeCancelled } from './harness';
import type { CellOutcome } from './index';

export interface ProbeCell {
  model: string;
  protocol: ProtocolId;
  capability: CapabilityId;
}

export interface RateLimitPolicy {
  maxAttempts: number;
  maxWaitMs: number;
}

export type CellRunner = (
  profileId: string,
  cell: ProbeCell,
  signal: AbortSignal,
  attempt: number,
) => Promise<CellOutcome>;

/** Without a retry-after, back off 1 s, 2 s, 4 s… */
function backoffMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** (attempt - 1));
}

/** A counting semaphore whose waiters can give up (job cancelled). */
export class Limiter {
  private active = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(readonly size: number) {}

  async acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw new ProbeCancelled();
    if (this.active < this.size) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new ProbeCancelled());
      };
      this.waiters.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // The slot was handed over by the releaser: `active` already counts it.
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.active--;
    };
  }
}

/** Where a profile × model's rate-limit pause is kept in the map every job shares. */
export function pauseKey(profileId: string, model: string): string {
  return `${profileId}\u0000${model}`;
}

interface QueuedCell {
  cell: ProbeCell;
  attempts: number;
}

/** Longest a worker sleeps before looking at the queue again (a scout's answer wakes it sooner). */
const IDLE_MS = 1000;

export class ProbeJob {
  readonly jobId = `job_${randomUUID()}`;
  readonly startedAt = new Date().toISOString();
  readonly total: number;
  /** The models this job probes, each once. */
  readonly models: string[];
  done = 0;
  state: ProbeJobView['state'] = 'running';
  private readonly controller = new AbortController();
  private readonly queue: QueuedCell[];
  /** Models rate-limited in this job: their 429s in a row. A success clears the count. */
  private readonly strikes = new Map<string, number>();
  /** Rate-limited models with a cell in flight: the one cell that finds out whether the limit has passed. */
  private readonly scouting = new Set<string>();
  /** Workers idle until a cell finishes (a scout's answer may free its model's other cells). */
  private wakers: (() => void)[] = [];
  finished: Promise<void> = Promise.resolve();

  constructor(
    readonly profileId: string,
    cells: ProbeCell[],
    private readonly deps: {
      limiter: Limiter;
      policy: RateLimitPolicy;
      runCell: CellRunner;
      record: (profileId: string, result: CapabilityResult) => Promise<void>;
      progress: (p: CapabilityProgress) => void;
      pauses: Map<string, number>;
      workers: number;
    },
  ) {
    this.queue = cells.map((cell) => ({ cell, attempts: 0 }));
    this.total = cells.length;
    this.models = [...new Set(cells.map((c) => c.model))];
  }

  view(): ProbeJobView {
    const until = this.pausedUntil();
    const waiting = this.waiting();
    return {
      jobId: this.jobId,
      profileId: this.profileId,
      state: this.state,
      done: this.done,
      total: this.total,
      startedAt: this.startedAt,
      models: this.models,
      ...(until ? { pausedUntil: new Date(until).toISOString() } : {}),
      ...(waiting.length ? { waiting } : {}),
    };
  }

  /** Each model whose queued cells wait for the gateway's retry-after, and until when. */
  private waiting(): { model: string; until: string }[] {
    const now = Date.now();
    const out = new Map<string, number>();
    for (const q of this.queue) {
      const p = this.deps.pauses.get(this.pauseKey(q.cell.model));
      if (p !== undefined && p > now) out.set(q.cell.model, p);
    }
    return [...out].map(([model, until]) => ({ model, until: new Date(until).toISOString() }));
  }

  start(): void {
    const workers = Array.from({ length: Math.max(1, Math.min(this.deps.workers, this.total)) }, () => this.worker());
    // allSettled: a worker's unexpected failure must still end the job and tell the window.
    this.finished = Promise.allSettled(workers).then(() => {
      if (this.state === 'running') this.state = 'finished';
      this.deps.progress(this.view());
    });
  }

  cancel(): boolean {
    if (this.state !== 'running') return false;
    this.state = 'cancelled';
    this.controller.abort();
    return true;
  }

  private announced: string | undefined;

  /** Tells the window once per change of the waits that the job is waiting for the gateway's retry-after. */
  private announcePause(): void {
    const view = this.view();
    const key = view.waiting?.map((w) => `${w.model}@${w.until}`).join(',');
    if (!view.pausedUntil || key === this.announced) return;
    this.announced = key;
    this.deps.progress(view);
  }

  private pauseKey(model: string): string {
    return pauseKey(this.profileId, model);
  }

  /** The latest pause among the models still queued (for the progress bar). */
  private pausedUntil(): number | undefined {
    const now = Date.now();
    let until: number | undefined;
    for (const q of this.queue) {
      const p = this.deps.pauses.get(this.pauseKey(q.cell.model));
      if (p !== undefined && p > now && (until === undefined || p > until)) until = p;
    }
    return until;
  }

  /**
   * The first queued cell whose model is neither paused nor being scouted, or one whose model is paused
   * longer than the caller allows (to give up on), or how long until one may be.
   */
  private take(): { item: QueuedCell } | { skip: QueuedCell; until: number } | { waitMs: number } | undefined {
    if (this.queue.length === 0) return undefined;
    const now = Date.now();
    let soonest = IDLE_MS;
    for (let i = 0; i < this.queue.length; i++) {
      const model = this.queue[i].cell.model;
      const p = this.deps.pauses.get(this.pauseKey(model)) ?? 0;
      if (p > now) {
        // Waiting would only earn another 429 and another long pause, once per cell of the model.
        if (p - now > this.deps.policy.maxWaitMs) return { skip: this.queue.splice(i, 1)[0], until: p };
        soonest = Math.min(soonest, p - now);
        continue;
      }
      // A model that was rate-limited sends one cell at a time until one gets through.
      if (this.scouting.has(model)) continue;
      if (this.strikes.has(model)) this.scouting.add(model);
      return { item: this.queue.splice(i, 1)[0] };
    }
    return { waitMs: soonest };
  }

  /** Sleeps until `ms` passes or a cell finishes, whichever is first. */
  private idle(ms: number, signal: AbortSignal): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.wakers.push(wake);
    return Promise.race([abortableSleep(ms, signal), woken]);
  }

  private wakeAll(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  private async worker(): Promise<void> {
    const signal = this.controller.signal;
    try {
      for (;;) {
        const next = this.take();
        if (!next) return;
        if ('waitMs' in next) {
          this.announcePause();
          await this.idle(next.waitMs, signal);
          continue;
        }
        if ('skip' in next) {
          if (signal.aborted) return;
          await this.finish(this.pausedResult(next.skip, next.until));
          continue;
        }
        const { item } = next;
        const release = await this.deps.limiter.acquire(signal);
        let out: CellOutcome;
        try {
          out = await this.deps.runCell(this.profileId, item.cell, signal, item.attempts + 1);
        } finally {
          release();
        }
        item.attempts++;
        if (signal.aborted) return;
        await this.settle(item, out);
      }
    } catch (err) {
      if (!(err instanceof ProbeCancelled)) throw err;
      // A probe run stopped from outside the job (the viewer's Stop, the core shutting down) stops the job:
      // carrying on would send more requests nobody wants and record them over earlier results.
      if (!signal.aborted) this.cancel();
    }
  }

  /** A cell's answer: recorded, or (rate limited, with patience left) queued again behind the model's pause. */
  private async settle(item: QueuedCell, out: CellOutcome): Promise<void> {
    const model = item.cell.model;
    this.scouting.delete(model);
    if (!out.rateLimited) {
      this.strikes.delete(model);
      await this.finish(out.result);
      return;
    }
    const strikes = (this.strikes.get(model) ?? 0) + 1;
    this.strikes.set(model, strikes);
    const waitMs = out.retryAfterMs ?? backoffMs(strikes);
    // Every job (this one's other cells, later jobs) keeps off this model until the gateway allows.
    const key = this.pauseKey(model);
    this.deps.pauses.set(key, Math.max(this.deps.pauses.get(key) ?? 0, Date.now() + waitMs));
    if (strikes < this.deps.policy.maxAttempts && waitMs <= this.deps.policy.maxWaitMs) {
      // Back at the front: it goes first once the gateway allows, before cells that never started.
      this.queue.unshift(item);
      this.announcePause();
      this.wakeAll();
      return;
    }
    out.result.message = this.givingUp(out, strikes);
    await this.finish(out.result);
    // The model's other cells would only meet the same limit: recorded as not run, nothing sent.
    const until = this.deps.pauses.get(key) ?? Date.now() + waitMs;
    for (const other of this.queue.filter((q) => q.cell.model === model)) {
      this.queue.splice(this.queue.indexOf(other), 1);
      const tooLong = waitMs > this.deps.policy.maxWaitMs;
      await this.finish(tooLong ? this.pausedResult(other, until) : this.notRunResult(other, out, strikes));
    }
  }

  private async finish(result: CapabilityResult): Promise<void> {
    await this.deps.record(this.profileId, result).catch(() => undefined);
    this.done++;
    if (this.state === 'running') this.deps.progress({ ...this.view(), latest: result });
    this.wakeAll();
  }

  /** A cell of a model given up on after a 429: not sent, and why. */
  private notRunResult(item: QueuedCell, out: CellOutcome, strikes: number): CapabilityResult {
    const asked =
      out.retryAfterMs !== undefined ? `asked to wait ${fmtSeconds(out.retryAfterMs)}` : 'gave no retry-after';
    return {
      ...item.cell,
      outcome: 'inconclusive',
      message:
        `Rate limited — not run: this model was still rate limited after ${strikes} ` +
        `attempt${strikes === 1 ? '' : 's'} ` +
        `(the gateway ${asked}); try again later.`,
      evidence: {
        runIds: [],
        fields: {},
        explanation: 'The gateway rate-limited this model, so the probe was not sent.',
      },
      at: new Date().toISOString(),
      attempts: item.attempts,
      durationMs: 0,
      ...(out.result.retryAfter ? { retryAfter: out.result.retryAfter } : {}),
    };
  }

  private pausedResult(item: QueuedCell, until: number): CapabilityResult {
    const waitMs = until - Date.now();
    return {
      ...item.cell,
      outcome: 'inconclusive',
      message:
        `Rate limited — not run: the gateway asked to wait ${fmtSeconds(waitMs)} for this model, longer than the ` +
        `${fmtSeconds(this.deps.policy.maxWaitMs)} allowed; try again later.`,
      evidence: {
        runIds: [],
        fields: {},
        explanation: 'The gateway rate-limited this model, so the probe was not sent.',
      },
      at: new Date().toISOString(),
      attempts: item.attempts,
      durationMs: 0,
      retryAfter: new Date(until).toISOString(),
    };
  }

  private givingUp(out: CellOutcome, attempts: number): string {
    const asked =
      out.retryAfterMs !== undefined
        ? `the gateway asked to wait ${fmtSeconds(out.retryAfterMs)}`
        : 'no retry-after was given';
    if (attempts < this.deps.policy.maxAttempts) {
      const allowed = fmtSeconds(this.deps.policy.maxWaitMs);
      return `${out.result.message} — not retried: ${asked}, longer than the ${allowed} allowed; try again later.`;
    }
    const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    return `${out.result.message} — still rate limited after ${tries} (${asked}); try again later.`;
  }
}
