import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { LoadPoint } from '../../../../shared/contract';
import { LoadShapeSchema } from '../../../../shared/load/shape';
import { OverTime } from './OverTime';

afterEach(cleanup);

const shape = LoadShapeSchema.parse({
  kind: 'stages',
  stages: [
    { durationS: 2, concurrency: 2 },
    { durationS: 2, concurrency: 8 },
    { durationS: 2, concurrency: 4 },
  ],
});
// Two requests a window over 6 s: E2E 100 ms in stage 1, 400 ms in stage 2, 200 ms in stage 3; one 429 at 3.5 s.
const points: LoadPoint[] = Array.from({ length: 12 }, (_, k) => ({
  i: k,
  t: 250 + k * 500,
  e2eMs: [100, 400, 200][Math.floor(k / 4)],
  ttftMs: 50,
  ok: true,
  out: 20,
}));
points.push({ i: 12, t: 3_500, e2eMs: 10, ok: false, err: 'rate-limited' });

const ticks = (chart: HTMLElement, axis: 'x' | 'y') =>
  [...chart.querySelectorAll(`.tick.${axis} text`)].map((t) => t.textContent);

describe('Over time', () => {
  it('draws each figure per window as lines with labelled axes, a legend and the stage boundaries', () => {
    render(<OverTime points={points} rateLimits={[]} elapsedMs={6_000} shape={shape} />);
    const region = screen.getByRole('region', { name: 'Over time' });
    const latency = within(region).getByRole('img', { name: 'Latency percentiles over time' });
    expect(ticks(latency, 'x')).toEqual(['0 s', '2 s', '4 s', '6 s']);
    expect(ticks(latency, 'y')).toEqual(['0 ms', '100 ms', '200 ms', '300 ms', '400 ms']);
    // Stages 2 and 3 start at 2 s and 4 s.
    expect(latency.querySelectorAll('.stage-mark')).toHaveLength(2);
    expect(latency.querySelector('path.line')?.getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+){5}$/);
    expect(region.textContent).toContain('E2E p99');
    const errors = within(region).getByRole('img', { name: 'Errors over time' });
    expect(ticks(errors, 'y')).toEqual(['0', '1']);
    expect(region.textContent).toContain('rate-limited (429)');
    const rps = within(region).getByRole('img', { name: 'Requests per second over time' });
    expect(ticks(rps, 'y').at(-1)).toBe('3/s');
    expect(within(region).queryByRole('img', { name: 'Rate-limit headers per window' })).toBeNull();
  });

  it('draws the rate-limit headers per window as shares of their maximum', () => {
    const rateLimits = [
      { t: 100, name: 'anthropic-ratelimit-requests-remaining', value: '100' },
      { t: 1_500, name: 'anthropic-ratelimit-requests-remaining', value: '50' },
    ];
    render(<OverTime points={[]} rateLimits={rateLimits} elapsedMs={2_000} />);
    const chart = screen.getByRole('img', { name: 'Rate-limit headers per window' });
    expect(ticks(chart, 'y')).toEqual(['0 %', '25 %', '50 %', '75 %', '100 %']);
    expect(chart.querySelectorAll('.stage-mark')).toHaveLength(0);
  });
});
