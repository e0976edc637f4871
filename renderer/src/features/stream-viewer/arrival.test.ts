import { describe, expect, it } from 'vitest';
import type { RawEvent } from '../../../../shared/protocols/types';
import { nthSmallest, readArrival } from './arrival';

const at = (times: number[]): RawEvent[] => times.map((t, seq) => ({ seq, t, type: 'chunk', data: '{}', size: 10 }));

describe('reading how events arrived', () => {
  it('calls a run whose events are spread over it streamed, with its median and largest gap', () => {
    const times = Array.from({ length: 40 }, (_, i) => 100 + i * 50);
    times[30] += 20;
    const r = readArrival(at(times), 2100, 90);
    expect(r.kind).toBe('steady');
    expect(r.text).toContain('Streamed: 40 content events over 1,950 ms');
    expect(r.text).toContain('median gap 50 ms');
    expect(r.maxGap).toEqual({ ms: 70, beforeSeq: 30 });
  });

  it('calls a long silence and then every event at once buffered, saying how long the silence was', () => {
    // Three network reads, each carrying twenty events that share its arrival time.
    const times = Array.from({ length: 60 }, (_, i) => 1205 + Math.floor(i / 20) * 3);
    const r = readArrival(at(times), 1215, 5);
    expect(r.kind).toBe('buffered');
    expect(r.text).toContain('all 60 content events arrived within 6 ms');
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

  it('takes the median of the gaps by size, not by how they read as text', () => {
    // Gaps 1, 2, 3, 10, 11 ms: as text "10" and "11" would sort before "2" and put 11 in the middle.
    const r = readArrival(at([0, 1, 3, 6, 16, 27]), 30);
    expect(r.text).toContain('median gap 3 ms');
  });

  it('does not judge a fast run or a handful of events', () => {
    expect(readArrival(at(Array.from({ length: 50 }, (_, i) => 10 + i)), 70).kind).toBe('too-short');
    expect(readArrival(at([1500, 1501, 1502]), 1510).kind).toBe('too-short');
    expect(readArrival([], 10)).toEqual({ kind: 'none', text: 'No events arrived.' });
  });

  it('measures from the first content event to the last: keep-alive comments and pings during a held-back answer do not count', () => {
    const keepAlive = (seq: number, t: number, type: string): RawEvent => ({
      seq,
      t,
      type,
      data: type === 'ping' ? '{"type":"ping"}' : ' OPENROUTER PROCESSING',
      size: 24,
    });
    const burst = at(Array.from({ length: 30 }, () => 2105)).map((e, i) => ({ ...e, seq: i + 3 }));
    const events = [keepAlive(0, 5, 'comment'), keepAlive(1, 705, 'ping'), keepAlive(2, 1405, 'comment'), ...burst];
    // Without word from the fold, every event but keep-alives; with it, exactly the events it marked.
    expect(readArrival(events, 2110, 5).kind).toBe('buffered');
    const r = readArrival(events, 2110, 5, burst.slice(1, -1));
    expect(r.kind).toBe('buffered');
    expect(r.text).toContain('all 28 content events arrived within 0 ms, after 2,100 ms of silence');
    expect(readArrival(events.slice(0, 3), 1500, 5, []).text).toBe(
      'No content arrived: none of the 3 events carried text, thinking or tool arguments.',
    );
  });
});

describe('the k-th smallest value', () => {
  it('matches a numeric sort at every rank, with repeats, runs of one value and already sorted input', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const cases = [
      Array.from({ length: 101 }, () => Math.floor(random() * 10)),
      Array.from({ length: 64 }, () => random() * 1000),
      Array.from({ length: 50 }, (_, i) => i),
      Array.from({ length: 50 }, (_, i) => 50 - i),
      Array.from({ length: 33 }, () => 0.5),
      [3],
    ];
    for (const values of cases) {
      const sorted = [...values].sort((a, b) => a - b);
      for (let k = 0; k < values.length; k++) expect(nthSmallest(Float64Array.from(values), k)).toBe(sorted[k]);
    }
  });
});
