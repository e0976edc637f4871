/**
 * Over time (docs/load.md "Over time"): the run cut into windows (shared/load/windows.ts), each figure a line on
 * the run's clock with axes, ticks and a legend, the shape's stage boundaries marked. Drawn from the points the
 * core pushes while a run goes, and from a saved record's rows once it has ended.
 */
import { memo, useMemo } from 'react';
import type { LoadPoint, RateLimitSample } from '../../../../shared/contract';
import { shapeDurationS, stageEndsS, type LoadShape } from '../../../../shared/load/shape';
import { ERROR_KIND_LABELS, ERROR_KINDS, windowStats, type LoadWindow } from '../../../../shared/load/windows';
import { Axes, B, H, place, T, W } from './Charts';
import { clockTick, msTick, niceScale, type Scale } from './ticks';

interface Series {
  name: string;
  values: (number | undefined)[];
}

const rateTick = (v: number, s: Scale) => `${v.toFixed(s.step < 1 ? 1 : 0)}/s`;
const countTick = (v: number) => String(v);
const shareTick = (v: number) => `${Math.round(v * 100)} %`;

/** One line per series at the windows' midpoints; a window without a value breaks its line. */
function LineChart(props: {
  label: string;
  series: Series[];
  mids: number[];
  xs: Scale;
  yTick: (v: number, s: Scale) => string;
  yTitle: string;
  marks: number[];
  ys?: Scale;
}) {
  const { series, mids, xs, marks } = props;
  const ys = useMemo(() => {
    if (props.ys) return props.ys;
    let top = 0;
    for (const s of series) for (const v of s.values) if (v !== undefined && v > top) top = v;
    return niceScale(0, top > 0 ? top : 1, 4);
  }, [props.ys, series]);
  const { x, y } = place(xs, ys);
  const path = (values: (number | undefined)[]) => {
    let d = '';
    let pen = false;
    values.forEach((v, k) => {
      if (v === undefined) return void (pen = false);
      d += `${pen ? 'L' : 'M'}${x(mids[k]).toFixed(1)} ${y(v).toFixed(1)}`;
      pen = true;
    });
    // A single window is a dot, not nothing.
    return d.includes('L') || d === '' ? d : `${d}h0.01`;
  };
  return (
    <figure className="load-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label}>
        <Axes xs={xs} ys={ys} xTick={clockTick} yTick={props.yTick} xTitle="run clock" yTitle={props.yTitle} />
        {marks.map((m, k) => (
          <g key={m} className="stage-mark">
            <line x1={x(m)} x2={x(m)} y1={T - 4} y2={H - B} />
            <text x={x(m) + 2} y={T + 4}>{`stage ${k + 2}`}</text>
          </g>
        ))}
        {series.map((s, k) => (
          <path key={s.name} className={`line c${k % 6}`} d={path(s.values)}>
            <title>{s.name}</title>
          </path>
        ))}
      </svg>
      <figcaption className="small muted legend">
        {series.map((s, k) => (
          <span key={s.name} className="legend-item">
            <span className={`swatch c${k % 6}`} aria-hidden="true" /> {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

const SHARE: Scale = { lo: 0, hi: 1, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1] };

function seriesOf(windows: LoadWindow[], headers: string[]) {
  const pick = (f: (w: LoadWindow) => number | undefined) => windows.map(f);
  const latency: Series[] = [
    { name: 'TTFT p50', values: pick((w) => w.ttftMs.p50) },
    { name: 'TTFT p90', values: pick((w) => w.ttftMs.p90) },
    { name: 'TTFT p99', values: pick((w) => w.ttftMs.p99) },
    { name: 'E2E p50', values: pick((w) => w.e2eMs.p50) },
    { name: 'E2E p90', values: pick((w) => w.e2eMs.p90) },
    { name: 'E2E p99', values: pick((w) => w.e2eMs.p99) },
  ];
  const errors: Series[] = ERROR_KINDS.map((k) => ({ name: ERROR_KIND_LABELS[k], values: pick((w) => w.errors[k]) }));
  const limits: Series[] = headers.map((h) => {
    const top = Math.max(1, ...windows.map((w) => w.rateLimits[h] ?? 0));
    const share = (v: number | undefined) => (v === undefined ? undefined : v / top);
    return { name: h, values: pick((w) => share(w.rateLimits[h])) };
  });
  return {
    latency,
    requests: [{ name: 'requests/s (ended)', values: pick((w) => w.requestsPerSec) }],
    tokens: [{ name: 'output tokens/s', values: pick((w) => w.outputTokensPerSec) }],
    errors,
    limits,
  };
}

export const OverTime = memo(function OverTime(props: {
  points: readonly LoadPoint[];
  rateLimits: readonly RateLimitSample[];
  elapsedMs: number;
  shape?: LoadShape;
}) {
  const { points, rateLimits, elapsedMs, shape } = props;
  const view = useMemo(() => {
    const stats = windowStats({ points, rateLimits, elapsedMs, shape });
    const shapeEnd = shape ? (shapeDurationS(shape) ?? 0) * 1000 : 0;
    const xs = niceScale(0, Math.max(1_000, elapsedMs, shapeEnd));
    const mids = stats.windows.map((w) => (w.startMs + w.endMs) / 2);
    const marks = shape
      ? stageEndsS(shape)
          .slice(0, -1)
          .map((s) => s * 1000)
      : [];
    return { stats, xs, mids, marks, series: seriesOf(stats.windows, stats.headers) };
  }, [points, rateLimits, elapsedMs, shape]);
  const { stats, xs, mids, marks, series } = view;
  const common = { xs, mids, marks };
  const per = `${stats.windowMs / 1000} s`;
  return (
    <section className="card" role="region" aria-label="Over time">
      <div className="card-head">
        <strong>Over time</strong>
        <span className="small muted">
          per {per} window, by when each request ended{marks.length ? '; lines mark where each stage starts' : ''}
        </span>
      </div>
      <LineChart
        {...common}
        label="Latency percentiles over time"
        series={series.latency}
        yTick={msTick}
        yTitle="latency"
      />
      <LineChart
        {...common}
        label="Requests per second over time"
        series={series.requests}
        yTick={rateTick}
        yTitle="requests/s"
      />
      <LineChart
        {...common}
        label="Output tokens per second over time"
        series={series.tokens}
        yTick={rateTick}
        yTitle="tokens/s"
      />
      <LineChart
        {...common}
        label="Errors over time"
        series={series.errors}
        yTick={countTick}
        yTitle={`errors per ${per}`}
        ys={niceScale(0, Math.max(1, ...series.errors.flatMap((s) => s.values.map((v) => v ?? 0))), 4, { minStep: 1 })}
      />
      {series.limits.length > 0 && (
        <LineChart
          {...common}
          label="Rate-limit headers per window"
          series={series.limits}
          yTick={shareTick}
          yTitle="share of its max"
          ys={SHARE}
        />
      )}
    </section>
  );
});
