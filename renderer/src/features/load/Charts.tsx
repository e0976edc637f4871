/**
 * The live charts: plain SVG, one path per series however many requests (10,000 circles would be 10,000 DOM
 * nodes; one path is one). Drawn from the aggregates the core pushes, never from stream events.
 */
import { memo, useMemo } from 'react';
import type { LoadPoint, RateLimitSample } from '../../../../shared/contract';
import { bin, clockTick, msTick, niceScale, type Scale } from './ticks';

export const W = 480;
export const H = 180;
/** The plot area's margins: room for the y tick labels on the left and the x tick labels and title below. */
const L = 50;
const R = 12;
export const T = 18;
export const B = 32;

/** Where a value of each scale lands in the plot area. */
export function place(xs: Scale, ys: Scale) {
  const x = (v: number) => L + ((W - L - R) * (v - xs.lo)) / (xs.hi - xs.lo || 1);
  const y = (v: number) => H - B - ((H - B - T) * (v - ys.lo)) / (ys.hi - ys.lo || 1);
  return { x, y };
}

interface AxesProps {
  xs: Scale;
  ys: Scale;
  xTick: (v: number, s: Scale) => string;
  yTick: (v: number, s: Scale) => string;
  xTitle: string;
  yTitle: string;
}

/** Both axes with their ticks and tick labels, light grid lines across, and each axis's title. */
export function Axes({ xs, ys, xTick, yTick, xTitle, yTitle }: AxesProps) {
  const { x, y } = place(xs, ys);
  return (
    <g className="axes">
      {ys.ticks.map((v) => (
        <g key={`y${v}`} className="tick y">
          <line className="grid" x1={L} x2={W - R} y1={y(v)} y2={y(v)} />
          <text x={L - 5} y={y(v) + 3} textAnchor="end">
            {yTick(v, ys)}
          </text>
        </g>
      ))}
      {xs.ticks.map((v, k) => (
        <g key={`x${v}`} className="tick x">
          <line x1={x(v)} x2={x(v)} y1={H - B} y2={H - B + 4} />
          {/* The last label ends at its tick: centred, it would run past the chart's right edge. */}
          <text x={x(v)} y={H - B + 14} textAnchor={k === xs.ticks.length - 1 ? 'end' : 'middle'}>
            {xTick(v, xs)}
          </text>
        </g>
      ))}
      <line x1={L} y1={H - B} x2={W - R} y2={H - B} />
      <line x1={L} y1={T - 4} x2={L} y2={H - B} />
      <text className="title" x={W - R} y={H - 3} textAnchor="end">
        {xTitle}
      </text>
      <text className="title" x={4} y={10}>
        {yTitle}
      </text>
    </g>
  );
}

const countTick = (v: number) => String(v);

/**
 * Time to first token and total time of each finished request, at the time it ended on the run's clock. A
 * request you stopped is drawn as cancelled, apart from the failures, as the summary counts it.
 */
export const Scatter = memo(function Scatter({ points }: { points: LoadPoint[] }) {
  const { ttft, total, failed, cancelled, xs, ys } = useMemo(() => {
    let xMax = 1;
    let yMax = 1;
    for (const p of points) {
      xMax = Math.max(xMax, p.t);
      yMax = Math.max(yMax, p.e2eMs);
    }
    const xs = niceScale(0, xMax);
    const ys = niceScale(0, yMax, 4);
    const { x, y } = place(xs, ys);
    const dot = (t: number, v: number) => `M${x(t).toFixed(1)} ${y(v).toFixed(1)}h0`;
    let ttft = '';
    let total = '';
    let failed = '';
    let cancelled = '';
    for (const p of points) {
      if (p.cancelled) cancelled += dot(p.t, p.e2eMs);
      else if (!p.ok) failed += dot(p.t, p.e2eMs);
      else {
        total += dot(p.t, p.e2eMs);
        if (p.ttftMs !== undefined) ttft += dot(p.t, p.ttftMs);
      }
    }
    return { ttft, total, failed, cancelled, xs, ys };
  }, [points]);
  return (
    <figure className="load-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="TTFT and total time per request">
        <Axes xs={xs} ys={ys} xTick={clockTick} yTick={msTick} xTitle="run clock" yTitle="latency" />
        <path className="dots total" d={total} />
        <path className="dots ttft" d={ttft} />
        <path className="dots failed" d={failed} />
        <path className="dots cancelled" d={cancelled} />
      </svg>
      <figcaption className="small muted">
        <span className="key total">●</span> total time <span className="key ttft">●</span> time to first token{' '}
        <span className="key failed">●</span> failed <span className="key cancelled">●</span> cancelled
      </figcaption>
    </figure>
  );
});

const BINS = 20;

/** End-to-end latency of the requests that completed, in 20 bins over the range they span (round bounds). */
export const Histogram = memo(function Histogram({ points }: { points: LoadPoint[] }) {
  const { bars, xs, ys } = useMemo(() => {
    const values = points.filter((p) => p.ok).map((p) => p.e2eMs);
    const xs = values.length ? niceScale(Math.min(...values), Math.max(...values)) : niceScale(0, 1000);
    const bars = bin(values, xs.lo, xs.hi, BINS);
    const ys = niceScale(0, Math.max(1, ...bars), 4, { minStep: 1 });
    return { bars, xs, ys };
  }, [points]);
  const { x, y } = place(xs, ys);
  const bw = (x(xs.hi) - x(xs.lo)) / BINS;
  return (
    <figure className="load-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="End-to-end latency histogram">
        <Axes xs={xs} ys={ys} xTick={msTick} yTick={countTick} xTitle="end-to-end latency" yTitle="requests" />
        {bars.map((n, k) =>
          n === 0 ? null : (
            <rect
              key={k}
              className="bar"
              x={x(xs.lo) + k * bw + 0.5}
              y={y(n)}
              width={Math.max(0.5, bw - 1)}
              height={y(0) - y(n)}
            >
              <title>{`${n} between ${msTick(xs.lo + (k * (xs.hi - xs.lo)) / BINS, xs)} and ${msTick(xs.lo + ((k + 1) * (xs.hi - xs.lo)) / BINS, xs)}`}</title>
            </rect>
          ),
        )}
      </svg>
    </figure>
  );
});

const SHARE: Scale = { lo: 0, hi: 1, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1] };
const shareTick = (v: number) => `${Math.round(v * 100)} %`;

/** Numeric rate-limit headers over the run's clock, each scaled to its own maximum; the last value of each listed. */
export const RateLimits = memo(function RateLimits({
  samples,
  elapsedMs,
}: {
  samples: RateLimitSample[];
  elapsedMs: number;
}) {
  const { xs, series, last } = useMemo(() => {
    const byName = new Map<string, RateLimitSample[]>();
    for (const s of samples) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
    const series: { name: string; d: string }[] = [];
    const xs = niceScale(0, Math.max(1, elapsedMs, ...samples.map((s) => s.t)));
    const { x, y } = place(xs, SHARE);
    for (const [name, list] of byName) {
      const nums = list.map((s) => Number(s.value));
      if (nums.some((n) => !Number.isFinite(n))) continue;
      const top = Math.max(1, ...nums);
      const d = list.map((s, k) => `${k ? 'L' : 'M'}${x(s.t).toFixed(1)} ${y(nums[k] / top).toFixed(1)}`).join('');
      series.push({ name, d: `${d}H${x(Math.max(1, elapsedMs)).toFixed(1)}` });
    }
    return { xs, series, last: [...byName].map(([name, list]) => [name, list[list.length - 1].value] as const) };
  }, [samples, elapsedMs]);
  return (
    <figure className="load-chart" aria-label="Rate-limit headers">
      {last.length === 0 ? (
        <p className="small muted">No rate-limit headers (anthropic-ratelimit-*, x-ratelimit-*, retry-after) so far.</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Rate-limit headers over time">
            <Axes xs={xs} ys={SHARE} xTick={clockTick} yTick={shareTick} xTitle="run clock" yTitle="share of its max" />
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
