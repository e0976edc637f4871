/**
 * Probe jobs: a set of matrix cells run in the background with bounded concurrency shared by every job, so
 * "probe everything" cannot flood a gateway. Rate-limit aware: a 429 pauses that profile × model until the
 * gateway's retry-after (other models go on), the cell is retried, and after `maxAttempts` — or when the
 * gateway asks for a longer wait than the caller allows — it is recorded inconclusive, and so are that model's
 * other queued cells, without waiting or sending anything. Cancelling stops the
 * runs in flight and records nothing for unfinished cells.
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

export type CellRunner = (profileId: string, cell: ProbeCell, signal: AbortSignal, attempt: number) => Promise<CellOutcome>;

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

export class ProbeJob {
  readonly jobId = `job_${randomUUID()}`;
  readonly startedAt = new Date().toISOString();
  readonly total: number;
  done = 0;
  state: ProbeJobView['state'] = 'running';
  private readonly controller = new AbortController();
  private readonly queue: QueuedCell[];
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
  }

  view(): ProbeJobView {
    const until = this.pausedUntil();
    return {
      jobId: this.jobId,
      profileId: this.profileId,
      state: this.state,
      done: this.done,
      total: this.total,
      startedAt: this.startedAt,
      ...(until ? { pausedUntil: new Date(until).toISOString() } : {}),
    };
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

  /** Tells the window once per pause that the job is waiting for the gateway's retry-after. */
  private announcePause(): void {
    const view = this.view();
    if (!view.pausedUntil || view.pausedUntil === this.announced) return;
    this.announced = view.pausedUntil;
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
   * The first queued cell whose model is not paused, or one whose model is paused longer than the caller
   * allows (to give up on), or how long until one is.
   */
  private take(): { item: QueuedCell } | { skip: QueuedCell; until: number } | { waitMs: number } | undefined {
    if (this.queue.length === 0) return undefined;
    const now = Date.now();
    let soonest = Infinity;
    for (let i = 0; i < this.queue.length; i++) {
      const p = this.deps.pauses.get(this.pauseKey(this.queue[i].cell.model)) ?? 0;
      if (p <= now) return { item: this.queue.splice(i, 1)[0] };
      // Waiting would only earn another 429 and another long pause, once per cell of the model.
      if (p - now > this.deps.policy.maxWaitMs) return { skip: this.queue.splice(i, 1)[0], until: p };
      soonest = Math.min(soonest, p - now);
    }
    return { waitMs: soonest };
  }

  private async worker(): Promise<void> {
    const signal = this.controller.signal;
    try {
      for (;;) {
        const next = this.take();
        if (!next) return;
        if ('waitMs' in next) {
          this.announcePause();
          await abortableSleep(next.waitMs, signal);
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
        if (out.rateLimited) {
          const waitMs = out.retryAfterMs ?? backoffMs(item.attempts);
          // Every job (this one's other cells, later jobs) keeps off this model until the gateway allows.
          const key = this.pauseKey(item.cell.model);
          this.deps.pauses.set(key, Math.max(this.deps.pauses.get(key) ?? 0, Date.now() + waitMs));
          if (item.attempts < this.deps.policy.maxAttempts && waitMs <= this.deps.policy.maxWaitMs) {
            // Back at the front: it runs as soon as the gateway allows, before cells that never started.
            this.queue.unshift(item);
            this.announcePause();
            continue;
          }
          out.result.message = this.givingUp(out, item.attempts, waitMs);
        }
        await this.finish(out.result);
      }
    } catch (err) {
      if (!(err instanceof ProbeCancelled)) throw err;
      // A probe run stopped from outside the job (the viewer's Stop, the core shutting down) stops the job:
      // carrying on would send more requests nobody wants and record them over earlier results.
      if (!signal.aborted) this.cancel();
    }
  }

  private async finish(result: CapabilityResult): Promise<void> {
    await this.deps.record(this.profileId, result).catch(() => undefined);
    this.done++;
    if (this.state === 'running') this.deps.progress({ ...this.view(), latest: result });
  }

  private pausedResult(item: QueuedCell, until: number): CapabilityResult {
    const waitMs = until - Date.now();
    return {
      ...item.cell,
      outcome: 'inconclusive',
      message: `Rate limited — not run: the gateway asked to wait ${fmtSeconds(waitMs)} for this model, longer than the ${fmtSeconds(this.deps.policy.maxWaitMs)} allowed; try again later.`,
      evidence: { runIds: [], fields: {}, explanation: 'The gateway rate-limited this model, so the probe was not sent.' },
      at: new Date().toISOString(),
      attempts: item.attempts,
      durationMs: 0,
      retryAfter: new Date(until).toISOString(),
    };
  }

  private givingUp(out: CellOutcome, attempts: number, waitMs: number): string {
    const asked = out.retryAfterMs !== undefined ? `the gateway asked to wait ${fmtSeconds(out.retryAfterMs)}` : 'no retry-after was given';
    if (attempts < this.deps.policy.maxAttempts) {
      return `${out.result.message} — not retried: ${asked}, longer than the ${fmtSeconds(this.deps.policy.maxWaitMs)} allowed; try again later.`;
    }
    return `${out.result.message} — still rate limited after ${attempts} attempt${attempts === 1 ? '' : 's'} (${asked}); try again later.`;
  }
}
