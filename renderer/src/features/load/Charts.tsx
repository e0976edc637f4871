/**
 * The live charts: plain SVG, one path per series however many requests (10,000 circles would be 10,000 DOM
 * nodes; one path is one). Drawn from the aggregates the core pushes, never from stream events.
 */
import { memo, useMemo } from 'react';
import type { LoadPoint, RateLimitSample } from '../../../../shared/contract';

const W = 480;
const H = 160;
const PAD = 28;

/** A little headroom above the largest value. */
const niceMax = (v: number) => Math.max(1, Math.ceil(v * 1.05));

function Axes({ xLabel, yLabel, xMax, yMax }: { xLabel: string; yLabel: string; xMax: string; yMax: string }) {
  return (
    <g className="axes">
      <line x1={PAD} y1={H - PAD} x2={W - 4} y2={H - PAD} />
      <line x1={PAD} y1={4} x2={PAD} y2={H - PAD} />
      <text x={W - 4} y={H - 8} textAnchor="end">
        {xLabel} (max {xMax})
      </text>
      <text x={PAD + 4} y={12}>
        {yLabel} (max {yMax})
      </text>
    </g>
  );
}

/** Time to first token and total time of each finished request, at the time it ended on the run's clock. */
export const Scatter = memo(function Scatter({ points }: { points: LoadPoint[] }) {
  const { ttft, total, failed, xMax, yMax } = useMemo(() => {
    let xMax = 1;
    let yMax = 1;
    for (const p of points) {
      xMax = Math.max(xMax, p.t);
      yMax = Math.max(yMax, p.e2eMs);
    }
    yMax = niceMax(yMax);
    const x = (t: number) => PAD + ((W - PAD - 6) * t) / xMax;
    const y = (v: number) => H - PAD - ((H - PAD - 6) * v) / yMax;
    const dot = (t: number, v: number) => `M${x(t).toFixed(1)} ${y(v).toFixed(1)}h0`;
    let ttft = '';
    let total = '';
    let failed = '';
    for (const p of points) {
      if (!p.ok) failed += dot(p.t, p.e2eMs);
      else {
        total += dot(p.t, p.e2eMs);
        if (p.ttftMs !== undefined) ttft += dot(p.t, p.ttftMs);
      }
    }
    return { ttft, total, failed, xMax, yMax };
  }, [points]);
  return (
    <figure className="load-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="TTFT and total time per request">
        <Axes xLabel="run clock" yLabel="ms" xMax={`${(xMax / 1000).toFixed(1)} s`} yMax={`${yMax}`} />
        <path className="dots total" d={total} />
        <path className="dots ttft" d={ttft} />
        <path className="dots failed" d={failed} />
      </svg>
      <figcaption className="small muted">
        <span className="key total">●</span> total time <span className="key ttft">●</span> time to first token{' '}
        <span className="key failed">●</span> failed
      </figcaption>
    </figure>
  );
});

/** End-to-end latency of the requests that completed, in 20 bins. */
export const Histogram = memo(function Histogram({ points }: { points: LoadPoint[] }) {
  const { bars, max, top } = useMemo(() => {
    const values = points.filter((p) => p.ok).map((p) => p.e2eMs);
    const max = Math.max(1, ...values);
    const bins = new Array<number>(20).fill(0);
    for (const v of values) bins[Math.min(19, Math.floor((v / max) * 20))]++;
    const top = Math.max(1, ...bins);
    return { bars: bins, max, top };
  }, [points]);
  const bw = (W - PAD - 6) / bars.length;
  return (
    <figure className="load-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="End-to-end latency histogram">
        <Axes xLabel="end-to-end ms" yLabel="requests" xMax={max.toFixed(0)} yMax={String(top)} />
        {bars.map((n, k) => {
          const h = ((H - PAD - 16) * n) / top;
          return <rect key={k} className="bar" x={PAD + k * bw + 1} y={H - PAD - h} width={bw - 2} height={h} />;
        })}
      </svg>
    </figure>
  );
});

/** Numeric rate-limit headers over the run's clock, each scaled to its own maximum; the last value of each listed. */
export const RateLimits = memo(function RateLimits({
  samples,
  elapsedMs,
}: {
  samples: RateLimitSample[];
  elapsedMs: number;
}) {
  const { series, last } = useMemo(() => {
    const byName = new Map<string, RateLimitSample[]>();
    for (const s of samples) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    const series: { name: string; d: string }[] = [];
    const xMax = Math.max(1, elapsedMs, ...samples.map((s) => s.t));
    for (const [name, list] of byName) {
      const nums = list.map((s) => Number(s.value));
      if (nums.some((n) => !Number.isFinite(n))) continue;
      const top = Math.max(1, ...nums);
      const x = (t: number) => (PAD + ((W - PAD - 6) * t) / xMax).toFixed(1);
      const y = (v: number) => (H - PAD - ((H - PAD - 16) * v) / top).toFixed(1);
      const d = list.map((s, k) => `${k ? 'L' : 'M'}${x(s.t)} ${y(nums[k])}`).join('');
      series.push({ name, d: `${d}H${W - 6}` });
    }
    return { series, last: [...byName].map(([name, list]) => [name, list[list.length - 1].value] as const) };
  }, [samples, elapsedMs]);
  return (
    <figure className="load-chart" aria-label="Rate-limit headers">
      {last.length === 0 ? (
        <p className="small muted">No rate-limit headers (anthropic-ratelimit-*, x-ratelimit-*, retry-after) so far.</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Rate-limit headers over time">
            <Axes xLabel="run clock" yLabel="share of max" xMax={`${(elapsedMs / 1000).toFixed(1)} s`} yMax="1" />
            {series.map((s, k) => (
              <path key={s.name} className={`line c${k % 6}`} d={s.d} />
            ))}
          </svg>
          <table className="small rate-limit-table">
            <tbody>
              {last.map(([name, value]) => (
                <tr key={name}>
                  <th scope="row" className="mono">
                    {name}
                  </th>
                  <td className="mono">{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </figure>
  );
});
