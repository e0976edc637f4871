/**
 * The raw events of one run while it streams, stored by column. A 20k-event firehose held as 20k RawEvent
 * objects (each with its own boxed `t`) is what the young-generation GC copies again and again while the run
 * is in flight; columns hold the same facts in a few arrays, and RawEvent objects are built only for what
 * leaves the core (a push, a finished run), where they die young.
 */
import type { RawEvent } from '../../shared/protocols/types';

export class EventLog {
  private types: string[] = [];
  private datas: string[] = [];
  private lines: (string | undefined)[] = [];
  private times = new Float64Array(1024);
  private sizes = new Float64Array(1024);
  private n = 0;

  get length(): number {
    return this.n;
  }

  /** Appends one event; its seq is the length before. */
  add(t: number, type: string, data: string, event: string | undefined, size: number): void {
    const seq = this.n;
    if (seq === this.times.length) {
      this.times = grow(this.times);
      this.sizes = grow(this.sizes);
    }
    this.times[seq] = t;
    this.sizes[seq] = size;
    this.types.push(type);
    this.datas.push(data);
    // Usually the event line repeats the JSON type: keep that one string, not a slice pinning the chunk.
    this.lines.push(event === type ? type : event);
    this.n = seq + 1;
  }

  /** Events [from, to) as RawEvent objects. */
  slice(from = 0, to: number = this.n): RawEvent[] {
    const out: RawEvent[] = [];
    for (let i = from; i < to; i++) {
      const e: RawEvent = { seq: i, t: this.times[i], type: this.types[i], data: this.datas[i], size: this.sizes[i] };
      const event = this.lines[i];
      if (event !== undefined) e.event = event;
      out.push(e);
    }
    return out;
  }
}

function grow(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}
