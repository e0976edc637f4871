/**
 * How a run's events arrived, in words under the timeline chart: a model streaming as it generates spreads its
 * events over the run; a relay that buffers (nginx proxy_buffering, a CDN) holds them back and flushes them
 * at once. Buffered means both the streaming probe's rule (docs/protocols.md §7.4: events bunched into under 30 %
 * of a run long enough to tell) and a burst: a median gap under a millisecond, events landing together in a
 * few network reads. The second part keeps a model that thinks for a long time before a normal stream from
 * reading as buffered. Only content counts (§7.4: first to last content delta): a relay's keep-alive comments
 * and pings arrive while it holds the answer back, and would otherwise spread a flush over the whole run.
 */
import type { RawEvent } from '../../../../shared/protocols/types';
import { count } from './format';

/** Below this total time a flush cannot be told from a fast model on a fast network. */
export const BUFFER_CHECK_MIN_MS = 1_000;
export const MIN_SPREAD = 0.3;
/** Below this median gap, events arrived together rather than one by one. */
export const BURST_GAP_MS = 1;
const MIN_EVENTS = 10;

export interface ArrivalReading {
  kind: 'none' | 'steady' | 'buffered' | 'too-short';
  text: string;
  /** Largest gap between two content events (or before the first), and the seq of the event after it. */
  maxGap?: { ms: number; beforeSeq: number };
}

/**
 * The k-th smallest value (0-based), found by partitioning in place (Hoare's quickselect): sorting 100k gaps to
 * take their median held the frame a run ended in for 12 ms (a typed-array sort) to 30 ms (a comparator sort).
 */
export function nthSmallest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const v = values[i];
        values[i++] = values[j];
        values[j--] = v;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k];
}

const dur = (v: number) => `${count(Math.round(v))} ms`;

/** Without the fold's word on which events carried content: every event but keep-alives. */
const notKeepAlive = (e: RawEvent) => e.type !== 'comment' && e.type !== 'ping';

/**
 * `content`: the events that carried visible content, in order (the store's `live.content`, marked by the
 * protocol fold). The whole list still sets the run's length.
 */
export function readArrival(
  events: RawEvent[],
  totalMs: number | undefined,
  ttfbMs?: number,
  content: RawEvent[] = events.filter(notKeepAlive),
): ArrivalReading {
  if (events.length === 0) return { kind: 'none', text: 'No events arrived.' };
  if (content.length === 0)
    return {
      kind: 'none',
      text: `No content arrived: none of the ${count(events.length)} events carried text, thinking or tool arguments.`,
    };
  const headers = ttfbMs ?? 0;
  const first = content[0].t;
  const last = content[content.length - 1].t;
  const end = events[events.length - 1].t;
  const runMs = Math.max(totalMs ?? end, end, last) - headers;
  const silence = first - headers;
  let gap = silence;
  let beforeSeq = content[0].seq;
  const gaps = new Float64Array(content.length - 1);
  for (let i = 1; i < content.length; i++) {
    const g = content[i].t - content[i - 1].t;
    gaps[i - 1] = g;
    if (g > gap) {
      gap = g;
      beforeSeq = content[i].seq;
    }
  }
  const maxGap = { ms: gap, beforeSeq };
  const spread = last - first;
  const median = gaps.length ? nthSmallest(gaps, Math.floor(gaps.length / 2)) : 0;
  const n = count(content.length);
  // Enough of a run to tell: a handful of events is not, and a spread needs two content events.
  const judged = events.length >= MIN_EVENTS && content.length >= 2 && runMs >= BUFFER_CHECK_MIN_MS;
  if (judged && spread < MIN_SPREAD * runMs && median < BURST_GAP_MS) {
    return {
      kind: 'buffered',
      maxGap,
      text: `Buffered: all ${n} content events arrived within ${dur(spread)}, after ${dur(silence)} of silence following the response headers. A model streams as it generates; something between you and it held the stream back and flushed it at once.`,
    };
  }
  const detail = `${n} content events over ${dur(spread)}, median gap ${dur(median)}, largest ${dur(gap)} before event ${beforeSeq}.`;
  if (!judged)
    return { kind: 'too-short', maxGap, text: `${detail} Too short a run to tell streaming from buffering.` };
  return { kind: 'steady', maxGap, text: `Streamed: ${detail}` };
}
