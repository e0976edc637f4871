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

export const PUSH_INTERVAL_MS = 16;
export const MAX_EVENTS_PER_PUSH = 2000;

export class PushBatcher {
  private queue: RunUpdate[] = [];
  private queuedEvents = 0;
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
    const last = this.queue[this.queue.length - 1];
    if (update.kind === 'events' && last?.kind === 'events' && last.runId === update.runId) {
      for (let i = 0; i < update.events.length; i++) last.events.push(update.events[i]);
    } else {
      this.queue.push(update.kind === 'events' ? { ...update, events: update.events.slice() } : update);
    }
    if (update.kind === 'events') this.queuedEvents += update.events.length;
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

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = false;
    if (!this.queue.length || this.closed) return;
    const batch = this.queue;
    this.queue = [];
    this.queuedEvents = 0;
    this.lastFlush = this.now();
    this.send(batch);
  }

  close(): void {
    this.flush();
    this.closed = true;
  }
}
