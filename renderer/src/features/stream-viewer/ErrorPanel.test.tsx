import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';

// Only the transport is faked (see test/fake-gateway.ts): the store and the components are the real ones.
vi.mock('../../bridge', () => import('../../test/fake-gateway'));

import { ErrorPanel } from './ErrorPanel';
import { useAppStore } from '../../store';
import { answers, calls, resetGateway } from '../../test/fake-gateway';

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
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(retryText()).toBe('3 s — retry in 2 s');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
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
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(retryText()).toBe('60 s — retry in 49 s');
  });
});

describe('ErrorPanel: Retry on a 429 or 529', () => {
  const pristine = useAppStore.getState();
  beforeEach(() => {
    useAppStore.setState(pristine, true);
    resetGateway();
  });
  const button = () => screen.getByRole('button', { name: /^Retry/ });

  it('the button says what a click does, "Retry now", and the countdown is the retry-after line', () => {
    const onRetry = vi.fn();
    render(<ErrorPanel error={err429(3)} endedAt={iso(T0)} onRetry={onRetry} />);
    expect(button().textContent).toBe('Retry now');
    expect(retryText()).toBe('3 s — retry in 3 s');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(button().textContent).toBe('Retry now');
    expect(retryText()).toBe('3 s — retry in 2 s');
    fireEvent.click(button());
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('at zero still says Retry now and waits for a click while automatic retry is off (the default)', () => {
    const onRetry = vi.fn();
    render(<ErrorPanel error={err429(2)} endedAt={iso(T0)} onRetry={onRetry} />);
    expect((screen.getByRole('checkbox', { name: /Retry automatically/ }) as HTMLInputElement).checked).toBe(false);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(button().textContent).toBe('Retry now');
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('switched on, retries once by itself when the wait is over; the switch is saved by the core', async () => {
    const settings = () => useAppStore.getState().settings;
    answers['settings:update'] = async (patch) => ({ ok: true, value: { ...settings(), ...patch } });
    const onRetry = vi.fn();
    const overloaded = { ...err429(2), status: 529, type: 'overloaded_error' };
    render(<ErrorPanel error={overloaded} endedAt={iso(T0)} onRetry={onRetry} />);
    await act(async () => fireEvent.click(screen.getByRole('checkbox', { name: /Retry automatically/ })));
    expect(calls.find((c) => c.call === 'settings:update')?.input).toEqual({ autoRetry: true });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(onRetry).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(onRetry).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('is not offered for other errors', () => {
    render(<ErrorPanel error={{ ...err429(2), status: 500 }} endedAt={iso(T0)} onRetry={vi.fn()} />);
    expect(screen.queryByRole('button', { name: /^Retry/ })).toBeNull();
  });
});
