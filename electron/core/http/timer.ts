import { EventEmitter } from 'node:events';

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
 * The abort signal a request is sent with: undici takes an EventEmitter with `aborted`, `reason` and an 'abort'
 * event as well as an AbortSignal. An AbortController (an EventTarget) costs about 5 µs to make and listen to,
 * this about 0.2 µs: 2 % of a load request's CPU (docs/load.md).
 */
export class RequestSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/**
 * Wraps a RequestSignal with the two timers. `cause()` says why the signal fired so a caught AbortError
 * can become "cancelled" or "timeout" rather than a generic failure.
 */
export class RequestTimer {
  readonly signal = new RequestSignal();
  private why: EndCause | undefined;
  private timer: NodeJS.Timeout | undefined;
  private phase: 'headers' | 'idle' = 'headers';
  private deadline: number;

  constructor(private readonly timeouts: Timeouts) {
    this.deadline = Date.now() + timeouts.headersMs;
    // Armed for the shorter of the two clocks, the one timer outlives the switch to the idle clock: `check`
    // re-arms it for whatever deadline stands when it fires. A short request makes one timer, not two.
    this.schedule(Math.min(timeouts.headersMs, timeouts.idleMs));
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
    this.phase = 'idle';
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
    this.signal.abort(new Error(cause));
  }
}
