import { describe, expect, it } from 'vitest';
import {
  arrivalGapMs,
  LoadShapeSchema,
  openSegments,
  peakConcurrency,
  shapeDurationS,
  stageEndsS,
  targetAt,
} from './shape';

describe('load shapes', () => {
  it('ramps concurrency in a straight line and ends with its time', () => {
    const ramp = LoadShapeSchema.parse({ kind: 'ramp', from: 2, to: 10, durationS: 8 });
    expect(targetAt(ramp, 0)?.concurrency).toBe(2);
    expect(targetAt(ramp, 4)?.concurrency).toBe(6);
    expect(targetAt(ramp, 7.9)?.concurrency).toBe(10);
    expect(targetAt(ramp, 8)).toBeUndefined();
    expect(peakConcurrency(ramp)).toBe(10);
  });

  it('says which of the stages runs, closed or open loop', () => {
    const shape = LoadShapeSchema.parse({
      kind: 'stages',
      stages: [
        { durationS: 5, concurrency: 4 },
        { durationS: 10, ratePerSec: 20 },
        { durationS: 5, concurrency: 16 },
      ],
    });
    expect(shape.kind === 'stages' && shape.arrival).toBe('steady');
    expect(shapeDurationS(shape)).toBe(20);
    expect(stageEndsS(shape)).toEqual([5, 15, 20]);
    expect(targetAt(shape, 1)).toEqual({ stage: 0, label: 'Stage 1 of 3 · 4 at once', concurrency: 4 });
    expect(targetAt(shape, 5)).toEqual({ stage: 1, label: 'Stage 2 of 3 · 20/s', ratePerSec: 20 });
    expect(targetAt(shape, 19)?.stage).toBe(2);
    expect(targetAt(shape, 20)).toBeUndefined();
    expect(peakConcurrency(shape)).toBe(16);
  });

  it('keeps N × C without a clock and a soak at its rate', () => {
    expect(shapeDurationS({ kind: 'fixed' })).toBeUndefined();
    expect(targetAt({ kind: 'fixed' }, 1e6)?.label).toBe('N × C');
    const soak = LoadShapeSchema.parse({ kind: 'soak', durationS: 60, ratePerSec: 5, arrival: 'poisson' });
    expect(targetAt(soak, 30)).toMatchObject({ ratePerSec: 5, label: 'Soak · 5/s' });
  });

  it('refuses a stage that is both closed and open, and stages over an hour', () => {
    expect(() =>
      LoadShapeSchema.parse({ kind: 'stages', stages: [{ durationS: 5, concurrency: 4, ratePerSec: 2 }] }),
    ).toThrow();
    expect(() =>
      LoadShapeSchema.parse({
        kind: 'stages',
        stages: [
          { durationS: 3000, concurrency: 4 },
          { durationS: 700, concurrency: 1 },
        ],
      }),
    ).toThrow(/3600 s in all/);
  });
});

describe('open-loop arrivals', () => {
  it('lists the open stretches with their rates, and spaces arrivals evenly or exponentially', () => {
    const shape = LoadShapeSchema.parse({
      kind: 'stages',
      stages: [
        { durationS: 2, concurrency: 4 },
        { durationS: 3, ratePerSec: 10 },
      ],
    });
    expect(openSegments(shape)).toEqual([{ stage: 1, startMs: 2_000, endMs: 5_000, ratePerSec: 10 }]);
    expect(openSegments({ kind: 'fixed' })).toEqual([]);
    expect(arrivalGapMs('steady', 20, 0.9)).toBe(50);
    // Inverse transform: u = 1 − e^(−1) gives exactly the mean gap; u = 0 gives none.
    expect(arrivalGapMs('poisson', 20, 1 - Math.exp(-1))).toBeCloseTo(50, 9);
    expect(arrivalGapMs('poisson', 20, 0)).toBeCloseTo(0, 12);
  });
});
