/**
 * Shapes of traffic for a load run (docs/load.md). The engine in the core and an exported locustfile follow
 * the same shape, so both read it through these functions: what should be true `t` seconds into the run.
 * N × C ("fixed") has no clock: it ends when its N requests have ended. Every other shape ends with its time.
 */
import { z } from 'zod';

export const SHAPE_LIMITS = { stages: 20, durationS: 3_600, concurrency: 64, ratePerSec: 1_000 } as const;

const Concurrency = z.number().int().min(1).max(SHAPE_LIMITS.concurrency);
const Rate = z.number().positive().max(SHAPE_LIMITS.ratePerSec);
const Duration = z.number().positive().max(SHAPE_LIMITS.durationS);

/** Closed loop: C workers, each sending again when its last request ends. Open loop: arrivals at a rate. */
export const StageSchema = z.union([
  z.object({ durationS: Duration, concurrency: Concurrency }).strict(),
  z.object({ durationS: Duration, ratePerSec: Rate }).strict(),
]);
export type Stage = z.infer<typeof StageSchema>;

/** How open-loop arrivals are spaced: evenly (one every 1/rate s) or as a Poisson process at that rate. */
export const ArrivalSchema = z.enum(['steady', 'poisson']);
export type Arrival = z.infer<typeof ArrivalSchema>;

export const LoadShapeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed') }).strict(),
  z.object({ kind: z.literal('ramp'), from: Concurrency, to: Concurrency, durationS: Duration }).strict(),
  z
    .object({
      kind: z.literal('stages'),
      stages: z.array(StageSchema).min(1).max(SHAPE_LIMITS.stages),
      arrival: ArrivalSchema.default('steady'),
    })
    .strict()
    .refine((s) => totalOf(s.stages) <= SHAPE_LIMITS.durationS, {
      message: `The stages may last ${SHAPE_LIMITS.durationS} s in all.`,
    }),
  z
    .object({
      kind: z.literal('soak'),
      durationS: Duration,
      ratePerSec: Rate,
      arrival: ArrivalSchema.default('steady'),
    })
    .strict(),
]);
export type LoadShape = z.output<typeof LoadShapeSchema>;
export type ShapeKind = LoadShape['kind'];

/** What the shape asks for at one moment: a concurrency (closed loop) or an arrival rate (open loop). */
export interface ShapeTarget {
  /** 0-based index of the stage (a ramp and a soak are one stage). */
  stage: number;
  /** The stage in words, as the Load status shows it: "Stage 2 of 3 · 16 at once". */
  label: string;
  concurrency?: number;
  ratePerSec?: number;
}

function totalOf(stages: readonly Stage[]): number {
  return stages.reduce((sum, s) => sum + s.durationS, 0);
}

/** Seconds the shape lasts; undefined for N × C, which lasts until its requests have ended. */
export function shapeDurationS(shape: LoadShape): number | undefined {
  switch (shape.kind) {
    case 'fixed':
      return undefined;
    case 'stages':
      return totalOf(shape.stages);
    default:
      return shape.durationS;
  }
}

/** Where each stage ends, in seconds from the start: the marks on the over-time chart. */
export function stageEndsS(shape: LoadShape): number[] {
  if (shape.kind !== 'stages') {
    const d = shapeDurationS(shape);
    return d === undefined ? [] : [d];
  }
  let t = 0;
  return shape.stages.map((s) => (t += s.durationS));
}

function stageWords(stage: Stage): string {
  return 'concurrency' in stage ? `${stage.concurrency} at once` : `${stage.ratePerSec}/s`;
}

/** The ramp's concurrency at t: a straight line from `from` to `to`, whole workers, never under 1. */
function rampAt(from: number, to: number, durationS: number, tS: number): number {
  return Math.max(1, Math.round(from + ((to - from) * Math.min(tS, durationS)) / durationS));
}

/** What the shape asks for `tS` seconds into the run; undefined once a timed shape is over. */
export function targetAt(shape: LoadShape, tS: number): ShapeTarget | undefined {
  const end = shapeDurationS(shape);
  if (end !== undefined && tS >= end) return undefined;
  switch (shape.kind) {
    case 'fixed':
      return { stage: 0, label: 'N × C' };
    case 'ramp': {
      const c = rampAt(shape.from, shape.to, shape.durationS, tS);
      return { stage: 0, label: `Ramp ${shape.from} → ${shape.to} · ${c} at once`, concurrency: c };
    }
    case 'soak':
      return { stage: 0, label: `Soak · ${shape.ratePerSec}/s`, ratePerSec: shape.ratePerSec };
    case 'stages': {
      const ends = stageEndsS(shape);
      const i = ends.findIndex((e) => tS < e);
      const stage = shape.stages[i];
      const label = `Stage ${i + 1} of ${shape.stages.length} · ${stageWords(stage)}`;
      return 'concurrency' in stage
        ? { stage: i, label, concurrency: stage.concurrency }
        : { stage: i, label, ratePerSec: stage.ratePerSec };
    }
  }
}

/** The most workers the shape ever asks for at once: how many the engine (or Locust) must be ready to run. */
export function peakConcurrency(shape: LoadShape): number | undefined {
  switch (shape.kind) {
    case 'ramp':
      return Math.max(shape.from, shape.to);
    case 'stages': {
      const closed = shape.stages.flatMap((s) => ('concurrency' in s ? [s.concurrency] : []));
      return closed.length ? Math.max(...closed) : undefined;
    }
    default:
      return undefined;
  }
}

/** A stretch of the run with one kind of traffic: closed loop (a concurrency) or open loop (a rate). */
export interface ShapeSegment {
  stage: number;
  startMs: number;
  endMs: number;
  concurrency?: number;
  ratePerSec?: number;
}

/** The shape's open-loop stretches in order: where arrivals are due, and at what rate. */
export function openSegments(shape: LoadShape): ShapeSegment[] {
  if (shape.kind === 'soak')
    return [{ stage: 0, startMs: 0, endMs: shape.durationS * 1000, ratePerSec: shape.ratePerSec }];
  if (shape.kind !== 'stages') return [];
  let t = 0;
  return shape.stages.flatMap((s, stage) => {
    const startMs = t * 1000;
    t += s.durationS;
    return 'ratePerSec' in s ? [{ stage, startMs, endMs: t * 1000, ratePerSec: s.ratePerSec }] : [];
  });
}

/**
 * Milliseconds to the next open-loop arrival at `ratePerSec`: 1/rate when steady; an exponential gap when
 * Poisson (inverse transform of a uniform `u` in [0, 1)), whose mean is 1/rate.
 */
export function arrivalGapMs(arrival: Arrival, ratePerSec: number, u: number = Math.random()): number {
  const mean = 1000 / ratePerSec;
  return arrival === 'poisson' ? -Math.log(1 - u) * mean : mean;
}

/** How open-loop arrivals of the shape are spaced (N × C and a ramp have none). */
export const arrivalOf = (shape: LoadShape): Arrival =>
  shape.kind === 'stages' || shape.kind === 'soak' ? shape.arrival : 'steady';
