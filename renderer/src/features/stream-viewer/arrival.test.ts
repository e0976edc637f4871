import { describe, expect, it } from 'vitest';
import type { RawEvent } from '../../../../shared/protocols/types';
import { readArrival } from './arrival';

const at = (times: number[]): RawEvent[] => times.map((t, seq) => ({ seq, t, type: 'chunk', data: '{}', size: 10 }));

describe('reading how events arrived', () => {
  it('calls a run whose events are spread over it streamed, with its median and largest gap', () => {
    const times = Array.from({ length: 40 }, (_, i) => 100 + i * 50);
    times[30] += 20;
    const r = readArrival(at(times), 2100, 90);
    expect(r.kind).toBe('steady');
    expect(r.text).toContain('Streamed: 40 events over 1,950 ms');
    expect(r.text).toContain('median gap 50 ms');
    expect(r.maxGap).toEqual({ ms: 70, beforeSeq: 30 });
  });

  it('calls a long silence and then every event at once buffered, saying how long the silence was', () => {
    // Three network reads, each carrying twenty events that share its arrival time.
    const times = Array.from({ length: 60 }, (_, i) => 1205 + Math.floor(i / 20) * 3);
    const r = readArrival(at(times), 1215, 5);
    expect(r.kind).toBe('buffered');
    expect(r.text).toContain('all 60 events arrived within 6 ms');
    expect(r.text).toContain('after 1,200 ms of silence following the response headers');
    expect(r.maxGap).toEqual({ ms: 1200, beforeSeq: 0 });
  });

  it('does not call a model that thinks a long time and then streams normally buffered', () => {
    const times = Array.from({ length: 42 }, (_, i) => 1500 + i * 10);
    const r = readArrival(at(times), 1925, 80);
    expect(r.kind).toBe('steady');
    expect(r.text).toContain('median gap 10 ms');
    expect(r.maxGap).toEqual({ ms: 1420, beforeSeq: 0 });
  });

  it('does not judge a fast run or a handful of events', () => {
    expect(readArrival(at(Array.from({ length: 50 }, (_, i) => 10 + i)), 70).kind).toBe('too-short');
    expect(readArrival(at([1500, 1501, 1502]), 1510).kind).toBe('too-short');
    expect(readArrival([], 10)).toEqual({ kind: 'none', text: 'No events arrived.' });
  });
});
