import { describe, expect, it, vi } from 'vitest';
import type { RecordedRun } from '../../../../shared/contract';
import type { ViewUpdate } from '../../store/runs-slice';
import { startReplay } from './replay';

const run: RecordedRun = {
  ledger: {
    runId: 'r',
    protocol: 'chat',
    profileId: 'p',
    profileName: 'P',
    stream: true,
    method: 'POST',
    url: 'u',
    headers: {},
    body: '{}',
    bodyBytes: 2,
    startedAt: '',
    warnings: [],
  },
  events: [0, 100, 100, 400].map((t, seq) => ({ seq, t, type: 'chunk', data: '{}', size: 2 })),
  result: {
    verdict: 'truncated',
    reason: 'cut',
    transcript: { blocks: [], usage: {} },
    metrics: { totalMs: 400, events: 4, bytes: 8, usage: {} },
    warnings: [],
    endedAt: '',
  },
  origin: 'composer',
};

describe('replay', () => {
  it('plays events at their recorded times, then the recorded verdict', () => {
    vi.useFakeTimers();
    const got: ViewUpdate[] = [];
    startReplay(run, 'realtime', (u) => got.push(...u), 'rp');
    const seqs = () => got.flatMap((u) => (u.kind === 'events' ? u.events.map((e) => e.seq) : []));
    vi.advanceTimersByTime(1);
    expect(seqs()).toEqual([0]);
    vi.advanceTimersByTime(100);
    expect(seqs()).toEqual([0, 1, 2]);
    vi.advanceTimersByTime(250);
    expect(seqs()).toEqual([0, 1, 2]);
    vi.advanceTimersByTime(100);
    expect(seqs()).toEqual([0, 1, 2, 3]);
    expect(got.at(-1)).toMatchObject({ kind: 'end', runId: 'rp', result: { verdict: 'truncated' } });
    vi.useRealTimers();
  });

  it('keeps up with the wall clock on a dense stream, one update per frame at most', () => {
    vi.useFakeTimers();
    const dense: RecordedRun = {
      ...run,
      events: Array.from({ length: 2000 }, (_, seq) => ({ seq, t: seq / 10, type: 'chunk', data: '{}', size: 2 })),
    };
    const got: ViewUpdate[] = [];
    startReplay(dense, 'realtime', (u) => got.push(...u), 'rd');
    const shown = () => got.flatMap((u) => (u.kind === 'events' ? u.events : [])).length;
    vi.advanceTimersByTime(100);
    expect(shown()).toBeGreaterThan(800);
    expect(shown()).toBeLessThanOrEqual(1001);
    vi.advanceTimersByTime(120);
    expect(shown()).toBe(2000);
    expect(got.at(-1)?.kind).toBe('end');
    expect(got.filter((u) => u.kind === 'events').length).toBeLessThanOrEqual(15);
    vi.useRealTimers();
  });

  it('a discarded replay delivers nothing more, not even its end: its view is being dropped', () => {
    vi.useFakeTimers();
    const got: ViewUpdate[] = [];
    const h = startReplay(run, 'realtime', (u) => got.push(...u), 'rx');
    vi.advanceTimersByTime(150);
    const before = got.length;
    h.discard();
    vi.advanceTimersByTime(1000);
    expect(got).toHaveLength(before);
    expect(got.some((u) => u.kind === 'end')).toBe(false);
    expect(h.next()).toBe(false);
    vi.useRealTimers();
  });

  it('steps one event at a time', () => {
    const got: ViewUpdate[] = [];
    const h = startReplay(run, 'step', (u) => got.push(...u), 'rs');
    expect(got.map((u) => u.kind)).toEqual(['started']);
    expect(h.next()).toBe(true);
    expect(h.next()).toBe(true);
    expect(h.next()).toBe(true);
    expect(h.next()).toBe(false);
    expect(got.filter((u) => u.kind === 'events')).toHaveLength(4);
    expect(got.at(-1)?.kind).toBe('end');
  });
});
