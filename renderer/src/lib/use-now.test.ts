import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useNow } from './use-now';

const T0 = Date.parse('2026-03-01T09:00:00Z');
/** The intervals running: only Date and the interval calls are faked, so React's own scheduling is not counted. */
const timers = () => vi.getTimerCount();
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useNow', () => {
  it('runs one interval for two readers of a period, and clears it when the last one leaves', () => {
    const a = renderHook(() => useNow(1000));
    const b = renderHook(() => useNow(1000));
    expect(timers()).toBe(1);
    a.unmount();
    expect(timers()).toBe(1);
    advance(1000);
    expect(b.result.current).toBe(T0 + 1000);
    b.unmount();
    expect(timers()).toBe(0);
  });

  it('moves on every period, the same time for every reader', () => {
    const a = renderHook(() => useNow(1000));
    const b = renderHook(() => useNow(1000));
    expect(a.result.current).toBe(T0);
    advance(999);
    expect(a.result.current).toBe(T0);
    advance(1);
    expect([a.result.current, b.result.current]).toEqual([T0 + 1000, T0 + 1000]);
    advance(3000);
    expect([a.result.current, b.result.current]).toEqual([T0 + 4000, T0 + 4000]);
  });

  it('keeps one interval per period', () => {
    const fast = renderHook(() => useNow(500));
    renderHook(() => useNow(30_000));
    expect(timers()).toBe(2);
    advance(1500);
    expect(fast.result.current).toBe(T0 + 1500);
  });

  it('starts no timer while off, and starts one when switched on, reading the time afresh', () => {
    const view = renderHook(({ on }) => useNow(500, { on }), { initialProps: { on: false } });
    expect(timers()).toBe(0);
    expect(view.result.current).toBe(T0);
    // The time passes with nothing ticking; the value stands still until the next render.
    advance(60_000);
    expect(view.result.current).toBe(T0);
    view.rerender({ on: true });
    expect(timers()).toBe(1);
    expect(view.result.current).toBe(T0 + 60_000);
    advance(500);
    expect(view.result.current).toBe(T0 + 60_500);
    view.rerender({ on: false });
    expect(timers()).toBe(0);
  });

  it('reads a clock nobody read for a while afresh, not from its last reading', () => {
    renderHook(() => useNow(1000)).unmount();
    vi.setSystemTime(T0 + 3_600_000);
    expect(renderHook(() => useNow(1000)).result.current).toBe(T0 + 3_600_000);
  });

  it('stops at `until`: one last move to a time past it, then no timer', () => {
    const view = renderHook(() => useNow(1000, { until: T0 + 2500 }));
    advance(2000);
    expect(view.result.current).toBe(T0 + 2000);
    expect(timers()).toBe(1);
    advance(1000);
    expect(view.result.current).toBe(T0 + 3000);
    expect(timers()).toBe(0);
    advance(5000);
    expect(view.result.current).toBe(T0 + 3000);
  });

  it('starts no timer for an `until` already past', () => {
    const view = renderHook(() => useNow(1000, { until: T0 - 1 }));
    expect(timers()).toBe(0);
    expect(view.result.current).toBe(T0);
  });

  it('a reader that stops at `until` leaves the shared interval running for the others', () => {
    const age = renderHook(() => useNow(1000));
    renderHook(() => useNow(1000, { until: T0 + 1000 }));
    advance(1000);
    expect(timers()).toBe(1);
    advance(1000);
    expect(age.result.current).toBe(T0 + 2000);
  });
});
