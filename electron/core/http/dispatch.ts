/**
 * A request sent through undici's dispatch API, its answer's head as a promise and its body as an async
 * iterator fed by the dispatch handler. undici's `request()` is this same handler wrapped in a Readable stream,
 * an async-hooks resource and the stream's async iterator: about a third of the CPU of a plain streaming read
 * (npm run bench, docs/load.md), paid again by every request of a load run.
 */
import type { Dispatcher } from 'undici';
import type { RequestSignal } from './timer';

type Controller = Dispatcher.DispatchController;

export interface DispatchedHead {
  statusCode: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: ArrivingBody;
}

/** Sends the request; resolves at the final response's head, rejects on what ended it before the head. */
export function dispatchRequest(
  dispatcher: Dispatcher,
  url: string,
  opts: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  signal: RequestSignal,
): Promise<DispatchedHead> {
  return new Promise((resolve, reject) => {
    // Already stopped: nothing is sent (undici would take a pooled connection only to destroy it).
    if (signal.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('The request was aborted.'));
      return;
    }
    const u = new URL(url);
    const handler = new Handler(signal, resolve, reject);
    try {
      dispatcher.dispatch(
        { origin: u.origin, path: u.pathname + u.search, method: opts.method, headers: opts.headers, body: opts.body },
        handler,
      );
    } catch (err) {
      handler.onResponseError(undefined, err as Error);
    }
  });
}

/** Chunks queued past this many bytes pause the socket until the reader catches up (a Readable's default). */
const HIGH_WATER = 64 * 1024;
const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * The body as it arrives. Queued chunks are read before a failure is thrown (what arrived is kept); `return()`
 * cancels the request, as destroying a Readable body does.
 */
export class ArrivingBody implements AsyncIterableIterator<Uint8Array> {
  private readonly queue: Uint8Array[] = [];
  private queued = 0;
  private state: 'open' | 'ended' | 'failed' | 'closed' = 'open';
  private error: Error | undefined;
  /** Reads waiting for a chunk, oldest first: a reader may ask again before the last read is answered. */
  private readonly waiting: { resolve: (r: IteratorResult<Uint8Array>) => void; reject: (err: Error) => void }[] = [];

  constructor(private readonly controller: Controller) {}

  /** Every byte has arrived (some may still be unread). */
  get complete(): boolean {
    return this.state === 'ended';
  }

  push(chunk: Uint8Array): void {
    if (this.state !== 'open') return;
    const waiting = this.waiting.shift();
    if (waiting !== undefined) {
      waiting.resolve({ value: chunk, done: false });
      return;
    }
    this.queue.push(chunk);
    this.queued += chunk.byteLength;
    if (this.queued >= HIGH_WATER && !this.controller.paused) this.controller.pause();
  }

  end(): void {
    if (this.state !== 'open') return;
    this.state = 'ended';
    this.settle();
  }

  fail(err: Error): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.error = err;
    this.settle();
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      this.queued -= chunk.byteLength;
      if (this.controller.paused && this.queued < HIGH_WATER / 2) this.controller.resume();
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.state === 'failed') {
      this.state = 'closed';
      return Promise.reject(this.error!);
    }
    if (this.state !== 'open') return Promise.resolve(DONE);
    return new Promise((resolve, reject) => void this.waiting.push({ resolve, reject }));
  }

  /** The reader is done with the body: a body still arriving is cancelled. */
  return(): Promise<IteratorResult<Uint8Array>> {
    const open = this.state === 'open';
    this.state = 'closed';
    this.error = undefined;
    this.queue.length = 0;
    this.queued = 0;
    if (open) this.controller.abort(new Error('The body was let go before its end.'));
    this.settle();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Reads waiting for the next chunk learn the body ended, failed (the first of them) or was let go. */
  private settle(): void {
    for (let waiting = this.waiting.shift(); waiting !== undefined; waiting = this.waiting.shift()) {
      if (this.state === 'failed') {
        this.state = 'closed';
        waiting.reject(this.error!);
      } else waiting.resolve(DONE);
    }
  }
}

class Handler implements Dispatcher.DispatchHandler {
  private controller: Controller | undefined;
  private body: ArrivingBody | undefined;
  private settled = false;

  constructor(
    private readonly signal: RequestSignal,
    private readonly resolve: (head: DispatchedHead) => void,
    private readonly reject: (err: unknown) => void,
  ) {
    if (!signal.aborted) signal.once('abort', this.onAbort);
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(this.reason());
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage?: string,
  ): void {
    // 1xx informational heads come before the answer's own.
    if (statusCode < 200 || this.settled) return;
    this.settled = true;
    this.body = new ArrivingBody(controller);
    this.resolve({ statusCode, statusText: statusMessage ?? '', headers, body: this.body });
  }

  onResponseData(_controller: Controller, chunk: Uint8Array): void {
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.body?.end();
    this.signal.off('abort', this.onAbort);
  }

  onResponseError(_controller: Controller | undefined, err: Error): void {
    this.signal.off('abort', this.onAbort);
    if (this.body !== undefined) this.body.fail(err);
    else if (!this.settled) {
      this.settled = true;
      this.reject(err);
    }
  }

  /** Stopped or timed out (RequestTimer): the request ends with the signal's reason, as undici's request() ends. */
  private readonly onAbort = () => {
    const reason = this.reason();
    this.onResponseError(this.controller, reason);
    this.controller?.abort(reason);
  };

  private reason(): Error {
    return this.signal.reason instanceof Error ? this.signal.reason : new Error('The request was aborted.');
  }
}
