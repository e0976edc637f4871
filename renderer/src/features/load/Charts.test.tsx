import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { LoadPoint } from '../../../../shared/contract';
import { Histogram, RateLimits, Scatter } from './Charts';
import { niceScale } from './ticks';

afterEach(cleanup);

const point = (i: number, e2eMs: number, over: Partial<LoadPoint> = {}): LoadPoint => ({
  i,
  t: 100 * i,
  e2eMs,
  ttftMs: e2eMs / 4,
  ok: true,
  ...over,
});
const ticks = (name: string, axis: 'x' | 'y') =>
  [...screen.getByRole('img', { name }).querySelectorAll(`.tick.${axis} text`)].map((t) => t.textContent);

describe('nice scales', () => {
  it('widen the data range to round bounds with round steps', () => {
    expect(niceScale(672, 690)).toMatchObject({ lo: 670, hi: 690, step: 5, ticks: [670, 675, 680, 685, 690] });
    expect(niceScale(0, 0.7).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceScale(0, 3, 4, { minStep: 1 }).ticks).toEqual([0, 1, 2, 3]);
  });
});

describe('the Load charts', () => {
  it('bins the histogram over the range the latencies span, not from 0, and labels both axes', () => {
    // 120 requests at 672–690 ms, as a healthy run of the Demo gateway.
    const points = Array.from({ length: 120 }, (_, i) => point(i, 672 + (i % 19)));
    render(<Histogram points={points} />);
    const chart = screen.getByRole('img', { name: 'End-to-end latency histogram' });
    const bars = chart.querySelectorAll('rect.bar');
    // Spread over the axis: no one bar holds them all.
    expect(bars.length).toBeGreaterThan(10);
    expect(ticks('End-to-end latency histogram', 'x')).toEqual(['670 ms', '675 ms', '680 ms', '685 ms', '690 ms']);
    expect(ticks('End-to-end latency histogram', 'y').at(0)).toBe('0');
    expect(chart.textContent).toContain('end-to-end latency');
  });

  it('gives the scatter ticks in seconds of the run clock and in ms of latency', () => {
    render(<Scatter points={Array.from({ length: 30 }, (_, i) => point(i, 600 + i))} />);
    expect(ticks('TTFT and total time per request', 'x')).toEqual(['0 s', '1 s', '2 s', '3 s']);
    expect(ticks('TTFT and total time per request', 'y')).toEqual(['0 ms', '200 ms', '400 ms', '600 ms', '800 ms']);
  });

  it('draws requests cancelled by Stop as cancelled, in the legend, not as red failures', () => {
    const points = [
      point(0, 600),
      point(1, 300, { ok: false, cancelled: true, ttftMs: undefined }),
      point(2, 310, { ok: false, cancelled: true, ttftMs: undefined }),
    ];
    const { container } = render(<Scatter points={points} />);
    expect(container.querySelector('path.dots.failed')?.getAttribute('d')).toBe('');
    expect(container.querySelector('path.dots.cancelled')?.getAttribute('d')).toMatch(/^M.*M/);
    expect(container.querySelector('figcaption')?.textContent).toContain('cancelled');
  });

  it('labels the rate-limit chart as shares of each header’s maximum over the run clock', () => {
    render(
      <RateLimits
        samples={[
          { t: 0, name: 'x-ratelimit-remaining-requests', value: '999' },
          { t: 900, name: 'x-ratelimit-remaining-requests', value: '980' },
        ]}
        elapsedMs={1000}
      />,
    );
    expect(ticks('Rate-limit headers over time', 'y')).toEqual(['0 %', '25 %', '50 %', '75 %', '100 %']);
    expect(ticks('Rate-limit headers over time', 'x').at(-1)).toBe('1.0 s');
  });
});
