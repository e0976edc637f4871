import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import type { RunUpdate } from '../../../shared/contract';
import { columnsOf } from '../../../shared/protocols/event-columns';

vi.mock('../bridge', () => import('../test/fake-gateway'));

import { EVENTS_PER_FRAME, useRunUpdates, type ViewUpdate } from './runs-slice';
import { pushed } from '../test/fake-gateway';

const deliver = (updates: RunUpdate[]) => pushed('runs:update', updates);

const burst = (n: number): RunUpdate[] => [
  {
    kind: 'events',
    runId: 'r',
    events: columnsOf(
      Array.from({ length: n }, (_, seq) =>
        seq % 2
          ? { seq, t: seq, type: 'chunk', data: `{"n":${seq}}`, size: 2 }
          : { seq, t: seq, type: 'ping', event: 'ping', data: '{}', size: 2 },
      ),
    ),
  },
  {
    kind: 'end',
    runId: 'r',
    result: {
      verdict: 'complete',
      reason: '',
      transcript: { blocks: [], usage: {} },
      metrics: { totalMs: 1, events: n, bytes: 0, usage: {} },
      warnings: [],
      endedAt: '',
    },
  },
];
const eventsIn = (batches: ViewUpdate[][]) =>
  batches.map((b) => b.reduce((n, u) => n + (u.kind === 'events' ? u.events.length : 0), 0));

let frames: FrameRequestCallback[] = [];
const runFrame = () => {
  const due = frames;
  frames = [];
  for (const f of due) f(performance.now());
};
const setHidden = (hidden: boolean) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
};

beforeEach(() => {
  frames = [];
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  vi.stubGlobal('cancelAnimationFrame', () => {
    frames = [];
  });
  setHidden(false);
});
afterEach(() => {
  // Each test's hook unsubscribes, so a push reaches only the hook of the test that sent it.
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('applying run pushes frame by frame', () => {
  it('a visible window takes a burst over several frames, and the end comes last', () => {
    const batches: ViewUpdate[][] = [];
    renderHook(() => useRunUpdates((u) => batches.push(u)));
    deliver(burst(4000));
    while (frames.length) runFrame();
    expect(eventsIn(batches).reduce((a, b) => a + b, 0)).toBe(4000);
    expect(batches.length).toBeGreaterThan(1);
    expect(eventsIn(batches)[0]).toBeLessThanOrEqual(EVENTS_PER_FRAME);
    expect(batches.at(-1)!.at(-1)!.kind).toBe('end');
    expect(batches.slice(0, -1).some((b) => b.some((u) => u.kind === 'end'))).toBe(false);
    // The pushed columns arrive as rows, in order, each with its own seq and event line.
    const rows = batches.flat().flatMap((u) => (u.kind === 'events' ? u.events : []));
    expect(rows.map((e) => e.seq)).toEqual([...Array(4000).keys()]);
    expect(rows[2]).toEqual({ seq: 2, t: 2, type: 'ping', event: 'ping', data: '{}', size: 2 });
    expect(rows[3]).toEqual({ seq: 3, t: 3, type: 'chunk', data: '{"n":3}', size: 2 });
  });

  it('a hidden window applies a whole burst at once on a timer', () => {
    const batches: ViewUpdate[][] = [];
    renderHook(() => useRunUpdates((u) => batches.push(u)));
    setHidden(true);
    deliver(burst(20_000));
    expect(frames).toHaveLength(0);
    vi.advanceTimersByTime(60);
    expect(eventsIn(batches)).toEqual([20_000]);
  });

  it('a frame asked for just before the window hid is replaced by a timer, so the run still lands', () => {
    const batches: ViewUpdate[][] = [];
    renderHook(() => useRunUpdates((u) => batches.push(u)));
    deliver(burst(10));
    expect(frames).toHaveLength(1);
    setHidden(true);
    vi.advanceTimersByTime(60);
    expect(eventsIn(batches)).toEqual([10]);
  });
});
