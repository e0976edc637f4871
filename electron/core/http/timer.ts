/** The one clock of a request: how long to wait for headers, and for each next chunk of a body. */
export interface Timeouts {
  /** From sending to the response headers (a non-streamed reply arrives only when complete). */
  headersMs: number;
  /** Longest silence between two chunks of a body (keep-alive comments count as activity). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 600_000, idleMs: 90_000 };

export type EndCause = 'cancelled' | 'timeout-headers' | 'timeout-idle';

/**
 * Wraps an AbortController with the two timers. `cause()` says why the signal fired so a caught AbortError
 * can become "cancelled" or "timeout" rather than a generic failure.
 */
export class RequestTimer {
  readonly controller = new AbortController();
  private why: EndCause | undefined;
  private timer: NodeJS.Timeout | undefined;
  private phase: 'headers' | 'idle' = 'headers';
  private deadline: number;

  constructor(private readonly timeouts: Timeouts) {
    this.deadline = Date.now() + timeouts.headersMs;
    this.schedule(timeouts.headersMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cause(): EndCause | undefined {
    return this.why;
  }

  /**
   * Headers arrived, or a body chunk did: the idle clock restarts. Only a deadline moves here; the one timer
   * re-checks it when it fires, so a stream of thousands of chunks does not churn timers.
   */
  activity(): void {
    if (this.why) return;
    this.deadline = Date.now() + this.timeouts.idleMs;
    if (this.phase === 'headers') {
      this.phase = 'idle';
      this.schedule(this.timeouts.idleMs);
    }
  }

  cancel(): void {
    this.fire('cancelled');
  }

  done(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), ms);
    this.timer.unref?.();
  }

  private check(): void {
    if (this.why) return;
    const left = this.deadline - Date.now();
    if (left > 0) this.schedule(left);
    else this.fire(this.phase === 'headers' ? 'timeout-headers' : 'timeout-idle');
  }

  private fire(cause: EndCause): void {
    if (this.why) return;
    this.why = cause;
    this.done();
    this.controller.abort(new Error(cause));
  }
}
