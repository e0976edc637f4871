import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { ErrorPanel } from './ErrorPanel';

const T0 = Date.parse('2025-01-01T12:00:00Z');
const err429 = (retryAfter: number) => ({ status: 429, type: 'rate_limit_error', message: 'slow down', retryAfter });
const iso = (ms: number) => new Date(ms).toISOString();
const retryText = () => screen.getByLabelText('Retry after').textContent;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ErrorPanel retry-after', () => {
  it('counts down, second by second, to "you can retry now"', () => {
    render(<ErrorPanel error={err429(3)} endedAt={iso(T0)} />);
    expect(retryText()).toBe('3 s — retry in 3 s');
    act(() => vi.advanceTimersByTime(1000));
    expect(retryText()).toBe('3 s — retry in 2 s');
    act(() => vi.advanceTimersByTime(2000));
    expect(retryText()).toBe('3 s — you can retry now');
  });

  it('reads the clock afresh when the panel is reused for another run', () => {
    // An old 429 is opened first (History): its retry window passed long ago.
    const { rerender } = render(<ErrorPanel error={err429(5)} endedAt={iso(T0 - 3_600_000)} />);
    expect(retryText()).toBe('5 s — you can retry now');
    // Two minutes later another run is picked: retry-after 60 s, ended 100 s ago, so retrying is already fine.
    vi.setSystemTime(T0 + 120_000);
    rerender(<ErrorPanel error={err429(60)} endedAt={iso(T0 + 20_000)} />);
    expect(retryText()).toBe('60 s — you can retry now');
    // And one that ended 10 s ago counts down from 50 s, and keeps counting.
    rerender(<ErrorPanel error={err429(60)} endedAt={iso(T0 + 110_000)} />);
    expect(retryText()).toBe('60 s — retry in 50 s');
    act(() => vi.advanceTimersByTime(1000));
    expect(retryText()).toBe('60 s — retry in 49 s');
  });
});
