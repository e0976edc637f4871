/**
 * A run's new events as a push carries them from the core to a window: column by column, event i of the push
 * being seq `first + i`. The window turns them into RawEvent rows when they arrive (`rowsOf`).
 *
 * Why columns: a push of one object per event costs more to send and to receive. For 20k Messages events,
 * measured on Node 20: structured clone (Electron IPC) 8.4 ms to write as objects against 2.6 ms as columns,
 * and 20 ms against 10 ms to read, the rows rebuilt included; JSON (the browser host) 10.5 against 5.1 ms to
 * write and 13.7 against 10 ms to read. (The core's own ingest costs the same either way: measured in-process,
 * building the columns instead of the objects saved nothing.)
 */
import type { RawEvent } from './types';

export interface EventColumns {
  /** The seq of the first event. */
  first: number;
  /** ms since the request started. */
  t: number[];
  type: string[];
  data: string[];
  size: number[];
  /** Each event's SSE `event:` line; null when it had none (JSON has no undefined in arrays). */
  event: (string | null)[];
}

export function columnCount(columns: EventColumns): number {
  return columns.data.length;
}

/**
 * Pushes that follow one another (each one's first seq continues the last), as one: each column is a single
 * array of its final size. Arrays grown push by push allocated about three times their size on a firehose.
 */
export function concatColumns(parts: readonly EventColumns[]): EventColumns {
  if (parts.length === 1) return parts[0];
  const column = <K extends 't' | 'type' | 'data' | 'size' | 'event'>(key: K): EventColumns[K] =>
    ([] as EventColumns[K][number][]).concat(...parts.map((p) => p[key])) as EventColumns[K];
  return {
    first: parts[0].first,
    t: column('t'),
    type: column('type'),
    data: column('data'),
    size: column('size'),
    event: column('event'),
  };
}

export function rowsOf(columns: EventColumns): RawEvent[] {
  const { first, t, type, data, size, event } = columns;
  const rows = new Array<RawEvent>(data.length);
  for (let i = 0; i < data.length; i++)
    rows[i] = rawEvent(first + i, t[i], type[i], data[i], event[i] ?? undefined, size[i]);
  return rows;
}

/**
 * One event as a row, for lists that are kept (the window's, a finished run's). Usually the event line repeats
 * the JSON type: that one string is kept, not a second copy (or a slice pinning the chunk it came in).
 */
export function rawEvent(
  seq: number,
  t: number,
  type: string,
  data: string,
  event: string | undefined,
  size: number,
): RawEvent {
  // One literal per shape: adding `event` afterwards gave every event a second, out-of-object property store.
  return event === undefined
    ? { seq, t, type, data, size }
    : { seq, t, type, data, size, event: event === type ? type : event };
}

/** Rows (contiguous by seq) as columns: tests and tools that build pushes by hand. */
export function columnsOf(events: readonly RawEvent[], first = events[0]?.seq ?? 0): EventColumns {
  return {
    first,
    t: events.map((e) => e.t),
    type: events.map((e) => e.type),
    data: events.map((e) => e.data),
    size: events.map((e) => e.size),
    event: events.map((e) => e.event ?? null),
  };
}
