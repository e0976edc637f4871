/**
 * How a run's events arrived, in words under the timeline chart: a model streaming as it generates spreads its
 * events over the run; a relay that buffers (nginx proxy_buffering, a CDN) holds them back and flushes them
 * at once. Buffered means both the streaming probe's rule (protocols.md §7.4: events bunched into under 30 %
 * of a run long enough to tell) and a burst: a median gap under a millisecond, events landing together in a
 * few network reads. The second part keeps a model that thinks for a long time before a normal stream from
 * reading as buffered.
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
  /** Largest gap between two events (or before the first), and the seq of the event after it. */
  maxGap?: { ms: number; beforeSeq: number };
}

const dur = (v: number) => `${count(Math.round(v))} ms`;

export function readArrival(events: RawEvent[], totalMs: number | undefined, ttfbMs?: number): ArrivalReading {
  if (events.length === 0) return { kind: 'none', text: 'No events arrived.' };
  const headers = ttfbMs ?? 0;
  const first = events[0].t;
  const last = events[events.length - 1].t;
  const runMs = Math.max(totalMs ?? last, last) - headers;
  const silence = first - headers;
  let gap = silence;
  let beforeSeq = events[0].seq;
  const gaps: number[] = [];
  for (let i = 1; i < events.length; i++) {
    const g = events[i].t - events[i - 1].t;
    gaps.push(g);
    if (g > gap) {
      gap = g;
      beforeSeq = events[i].seq;
    }
  }
  const maxGap = { ms: gap, beforeSeq };
  const spread = last - first;
  const median = gaps.length ? gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] : 0;
  const n = count(events.length);
  const judged = events.length >= MIN_EVENTS && runMs >= BUFFER_CHECK_MIN_MS;
  if (judged && spread < MIN_SPREAD * runMs && median < BURST_GAP_MS) {
    return {
      kind: 'buffered',
      maxGap,
      text: `Buffered: all ${n} events arrived within ${dur(spread)}, after ${dur(silence)} of silence following the response headers. A model streams as it generates; something between you and it held the stream back and flushed it at once.`,
    };
  }
  const detail = `${n} events over ${dur(spread)}, median gap ${dur(median)}, largest ${dur(gap)} before event ${beforeSeq}.`;
  if (!judged) return { kind: 'too-short', maxGap, text: `${detail} Too short a run to tell streaming from buffering.` };
  return { kind: 'steady', maxGap, text: `Streamed: ${detail}` };
}
