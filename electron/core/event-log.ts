/**
 * The raw events of one run. While the run streams, the log holds each event's payload only until the push
 * that hands it to the window, as columns (event-columns.ts). For the record of the run it keeps each push's
 * time, type and size columns and the body bytes the reader was fed; `events()` reads those bytes again
 * through the same SSE reader whenever the whole list is asked for (history, a probe, a reopened run).
 *
 * Why: kept as objects, a 20k-event firehose's events and their payloads (slices that pin every chunk of
 * decoded text) were alive for the whole run and beyond, and each scavenge during the stream copied them out
 * of the young generation: about 3.5 MB promoted per scavenge, now about 0.2 MB on the Chat and Responses
 * firehoses, and 4 to 11 ms less CPU per run (core only, measured in-process). Bytes kept off the JavaScript
 * heap cost the collector nothing, and a list built on demand dies young once read.
 */
import { StringDecoder } from 'node:string_decoder';
import { rawEvent, type EventColumns } from '../../shared/protocols/event-columns';
import type { RawEvent } from '../../shared/protocols/types';
import { createSseReader } from '../../shared/protocols/sse';
import { scrub } from './secrets';

/** What the record of a run keeps of one push: everything but the payloads, which it reads again from the body. */
type Kept = Pick<EventColumns, 'first' | 't' | 'type' | 'size'>;

/** What reading a stream needs of a log (runs/stream.ts): EventLog keeps the events, CountingLog only counts them. */
export interface RunLog {
  readonly length: number;
  /** Whether the events are kept (their sizes are then needed). */
  readonly keeps: boolean;
  /** `rewritten`: the payload is not the one the body holds (a split secret taken out, runs/split-secret-guard.ts). */
  add(t: number, type: string, data: string, event: string | undefined, size: number, rewritten?: boolean): void;
  take(): EventColumns | undefined;
  keep(chunk: Uint8Array): void;
  ended(): void;
  scrubbed(secrets: readonly string[]): void;
}

export class EventLog implements RunLog {
  readonly keeps = true;
  private count = 0;
  /** The events not yet taken, already as the columns of their push. */
  private fresh: EventColumns = freshColumns(0);
  /**
   * The times, types and sizes of the events taken so far: the very arrays their pushes carried (nothing
   * changes a push's columns once sent), so the record costs no copy and no array that grows with the run.
   */
  private readonly kept: Kept[] = [];
  private readonly body: Uint8Array[] = [];
  private bodyLength = 0;
  private readerEnded = false;
  private secrets: readonly string[] | undefined;
  /** Payloads written again without a split secret, by seq: reading the body again would give the pieces back. */
  private readonly rewritten = new Map<number, string>();

  get length(): number {
    return this.count;
  }

  /** The bytes of body kept to list the events again. */
  get bodyBytes(): number {
    return this.bodyLength;
  }

  /** Appends one event; its seq is the length before. */
  add(t: number, type: string, data: string, event: string | undefined, size: number, rewritten?: boolean): void {
    if (rewritten) this.rewritten.set(this.count, data);
    this.count++;
    const f = this.fresh;
    f.t.push(t);
    f.type.push(type);
    f.data.push(data);
    f.size.push(size);
    f.event.push(event ?? null);
  }

  /** The events added since the last call, as the columns of a push; the log lets go of their payloads. */
  take(): EventColumns | undefined {
    const taken = this.fresh;
    if (taken.data.length === 0) return undefined;
    this.kept.push({ first: taken.first, t: taken.t, type: taken.type, size: taken.size });
    this.fresh = freshColumns(this.count);
    return taken;
  }

  /**
   * Keeps a chunk of the body as it is fed to the reader. Not a copy: undici hands out views into the socket's
   * read buffers and zlib into its output buffers, and neither writes a buffer again once handed out. Copying
   * doubled the memory outside the heap that each run churned through, and with it the full collections.
   * (runs.test.ts and run-faults.test.ts compare every listed event with the pushed one, plain and gzipped.)
   */
  keep(chunk: Uint8Array): void {
    this.body.push(chunk);
    this.bodyLength += chunk.byteLength;
  }

  /** The body ended and the reader dispatched the event still waiting for its blank line (`SseReader.end`). */
  ended(): void {
    this.readerEnded = true;
  }

  /** A secret showed up in the body: the events the reader dispatched had their payloads scrubbed of these. */
  scrubbed(secrets: readonly string[]): void {
    this.secrets = secrets;
  }

  /**
   * Every event, in order, built anew. The same reader over the same bytes dispatches the same payloads in the
   * same order; a run can stop part-way through a chunk, so only the first `length` count. A secret seen
   * anywhere is scrubbed from every payload: one dispatched before the first sighting cannot hold it (the
   * watch reads all text before the parser does), so scrubbing it changes nothing.
   */
  events(): RawEvent[] {
    const out: RawEvent[] = [];
    if (this.count === 0) return out;
    const secrets = this.secrets;
    const pushes = this.fresh.data.length ? [...this.kept, this.fresh] : this.kept;
    let push = 0;
    const put = (data: string, event: string | undefined) => {
      const seq = out.length;
      if (seq >= this.count) return;
      while (seq >= pushes[push].first + pushes[push].t.length) push++;
      const { first, t, type, size } = pushes[push];
      const i = seq - first;
      const clean = (text: string) => (secrets === undefined ? text : scrub(text, secrets));
      const payload = this.rewritten.get(seq) ?? data;
      out.push(rawEvent(seq, t[i], type[i], clean(payload), event === undefined ? event : clean(event), size[i]));
    };
    const reader = createSseReader(
      { onMessage: (m) => put(m.data, m.event), onComment: (text) => put(text, undefined) },
      new StringDecoder('utf8'),
    );
    for (const chunk of this.body) reader.feed(chunk);
    if (this.readerEnded) reader.end();
    if (out.length < this.count)
      throw new Error(`reading the body again gave ${out.length} of the run's ${this.count} events`);
    return out;
  }
}

/**
 * A log for a run whose events nobody will list or watch (a load request, docs/load.md): it counts them, for the
 * verdict's wording and the metrics, and keeps and pushes none.
 */
export class CountingLog implements RunLog {
  readonly keeps = false;
  length = 0;
  add(): void {
    this.length++;
  }
  take(): undefined {
    return undefined;
  }
  keep(): void {}
  ended(): void {}
  scrubbed(): void {}
}

const freshColumns = (first: number): EventColumns => ({ first, t: [], type: [], data: [], size: [], event: [] });
