/**
 * Coalesces run updates for one receiver (a window or a WebSocket) into at most about one push a frame.
 * Leading edge: after a quiet spell the first update goes out at the end of the current tick (so the first
 * token is not held back a frame); after that, updates wait for the interval. Events of the same run between
 * two flushes travel as one `events` update; `started`, `response` and `end` keep their order relative to
 * events, and an `end` flushes at once so the verdict is never held back. A burst also goes out once it holds
 * MAX_EVENTS_PER_PUSH events: a window decodes each push in one task, and a 20k-event firehose that arrived
 * within one interval made a single 3.8 MB push that held the window's main thread for 50–100 ms.
 */
import type { RunUpdate } from '../../shared/contract';
import { appendColumns, columnCount, copyColumns, type EventColumns } from '../../shared/protocols/event-columns';

export const PUSH_INTERVAL_MS = 16;
export const MAX_EVENTS_PER_PUSH = 2000;

export class PushBatcher {
  private queue: RunUpdate[] = [];
  private queuedEvents = 0;
  /** The queued columns this batcher made by merging, which it may append to; a caller's own are never changed. */
  private merged: EventColumns | undefined;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private lastFlush = -Infinity;
  private closed = false;

  constructor(
    private readonly send: (batch: RunUpdate[]) => void,
    private readonly intervalMs = PUSH_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
    private readonly maxEvents = MAX_EVENTS_PER_PUSH,
  ) {}

  push(update: RunUpdate): void {
    if (this.closed) return;
    const at = this.queue.length - 1;
    const last = this.queue[at];
    const merged = update.kind === 'events' && last?.kind === 'events' && last.runId === update.runId && this.join(at, last, update.events);
    if (!merged) this.queue.push(update);
    if (update.kind === 'events') this.queuedEvents += columnCount(update.events);
    if (update.kind === 'end' || this.queuedEvents >= this.maxEvents) {
      this.flush();
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastFlush + this.intervalMs - this.now();
    if (wait <= 0) queueMicrotask(() => this.flush());
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Merges `more` into the queued events update at `at` when it continues it. */
  private join(at: number, queued: Extract<RunUpdate, { kind: 'events' }>, more: EventColumns): boolean {
    let into = queued.events;
    if (into !== this.merged) {
      into = copyColumns(into);
      this.queue[at] = { ...queued, events: into };
      this.merged = into;
    }
    return appendColumns(into, more);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = false;
    if (!this.queue.length || this.closed) return;
    const batch = this.queue;
    this.queue = [];
    this.queuedEvents = 0;
    this.merged = undefined;
    this.lastFlush = this.now();
    this.send(batch);
  }

  close(): void {
    this.flush();
    this.closed = true;
  }
}
