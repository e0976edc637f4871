/**
 * Axis scales with round ticks ("nice numbers": steps of 1, 2, 2.5 or 5 times a power of ten), by hand: the
 * charts are plain SVG and need nothing else from a charting library.
 */

export interface Scale {
  lo: number;
  hi: number;
  step: number;
  ticks: number[];
}

/** The round step that cuts `span` into about `count` parts; at least `minStep` (1 for counts). */
export function niceStep(span: number, count: number, minStep = 0): number {
  const raw = span / Math.max(1, count);
  if (!(raw > 0)) return Math.max(1, minStep);
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  const step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * p;
  return Math.max(step, minStep);
}

/**
 * A scale over [min, max] widened to round bounds, with its ticks. A range of one value is widened around it,
 * so that 120 requests of 680 ms sit in the middle of the axis, not at an edge of one from 0.
 */
export function niceScale(min: number, max: number, count = 5, opts: { minStep?: number } = {}): Scale {
  let a = Math.min(min, max);
  let b = Math.max(min, max);
  if (!(b > a)) {
    const pad = Math.max(opts.minStep ?? 0, Math.abs(a) * 0.05, 1);
    a = a >= 0 && a - pad < 0 ? 0 : a - pad;
    b += pad;
  }
  const step = niceStep(b - a, count, opts.minStep);
  const lo = Math.floor(a / step + 1e-9) * step;
  const hi = Math.ceil(b / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let k = 0; lo + k * step <= hi + step / 2; k++) ticks.push(Number((lo + k * step).toPrecision(12)));
  return { lo, hi, step, ticks };
}

/** Decimals a tick label needs so that ticks `step` apart read differently. */
export const decimalsFor = (step: number) => Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));

/** A tick of milliseconds, as ms under 10 s and as s above (tick labels stay short). */
export function msTick(v: number, scale: Scale): string {
  if (scale.hi >= 10_000) return `${(v / 1000).toFixed(decimalsFor(scale.step / 1000))} s`;
  return `${v.toFixed(decimalsFor(scale.step))} ms`;
}

/** A tick of the run's clock (ms), in seconds. */
export const clockTick = (v: number, scale: Scale) => `${(v / 1000).toFixed(decimalsFor(scale.step / 1000))} s`;

/** `count` equal bins over [lo, hi]: how many values fall in each (the last bin includes hi). */
export function bin(values: readonly number[], lo: number, hi: number, count: number): number[] {
  const bins = new Array<number>(count).fill(0);
  const width = (hi - lo) / count;
  for (const v of values) {
    const k = width > 0 ? Math.floor((v - lo) / width) : 0;
    bins[Math.max(0, Math.min(count - 1, k))]++;
  }
  return bins;
}
