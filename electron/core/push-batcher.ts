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
import { columnCount, concatColumns, type EventColumns } from '../../shared/protocols/event-columns';

export const PUSH_INTERVAL_MS = 16;
export const MAX_EVENTS_PER_PUSH = 2000;

export class PushBatcher {
  private queue: RunUpdate[] = [];
  private queuedEvents = 0;
  /** The seq that would continue the last events update queued. */
  private nextSeq = -1;
  /**
   * The columns of later pushes that continue the last queued events update, joined to it once it stops being
   * last or goes out: one exact-size array per column instead of arrays grown push by push. A caller's columns
   * are never changed (a run's event log keeps the arrays it pushed as its record).
   */
  private more: EventColumns[] = [];
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
    if (
      update.kind === 'events' &&
      last?.kind === 'events' &&
      last.runId === update.runId &&
      update.events.first === this.nextSeq
    ) {
      this.more.push(update.events);
    } else {
      this.joinMore();
      this.queue.push(update);
    }
    if (update.kind === 'events') {
      this.nextSeq = update.events.first + columnCount(update.events);
      this.queuedEvents += columnCount(update.events);
    }
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

  private joinMore(): void {
    if (this.more.length === 0) return;
    const at = this.queue.length - 1;
    const last = this.queue[at] as Extract<RunUpdate, { kind: 'events' }>;
    this.queue[at] = { ...last, events: concatColumns([last.events, ...this.more]) };
    this.more = [];
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = false;
    if (!this.queue.length || this.closed) return;
    this.joinMore();
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
