/**
 * The raw events of one run while it streams. Each event becomes one RawEvent object, once: a push hands
 * out the events added since the last push, and the finished run reuses those same objects. Building a
 * second set for the finished run cost a 20k-event firehose about 3 ms between its last byte and its verdict,
 * plus 20k more objects for the garbage collector.
 */
import type { RawEvent } from '../../shared/protocols/types';

export class EventLog {
  private readonly events: RawEvent[] = [];
  private taken = 0;

  get length(): number {
    return this.events.length;
  }

  /** Appends one event; its seq is the length before. */
  add(t: number, type: string, data: string, event: string | undefined, size: number): void {
    const seq = this.events.length;
    // One literal per shape: adding `event` afterwards gave every event a second, out-of-object property store.
    // Usually the event line repeats the JSON type: keep that one string, not a slice pinning the chunk.
    this.events.push(event === undefined ? { seq, t, type, data, size } : { seq, t, type, data, size, event: event === type ? type : event });
  }

  /** The events added since the last call (for a push). */
  take(): RawEvent[] {
    const fresh = this.events.slice(this.taken);
    this.taken = this.events.length;
    return fresh;
  }

  /** Every event so far, sharing the objects `take()` handed out. */
  all(): RawEvent[] {
    return this.events;
  }
}
