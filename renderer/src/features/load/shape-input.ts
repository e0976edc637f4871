/**
 * The Shape fields of the Load form as a shape (shared/load/shape.ts), or a clear message for each field that is
 * not yet one. Pure: the form shows the messages under their fields and starts nothing until there are none.
 */
import {
  LoadShapeSchema,
  peakConcurrency,
  SHAPE_LIMITS,
  type LoadShape,
  type ShapeKind,
} from '../../../../shared/load/shape';
import type { LoadSettings, StageDraft } from '../../store/load-slice';

export const SHAPE_OPTIONS: readonly (readonly [ShapeKind, string])[] = [
  ['fixed', 'N × C'],
  ['ramp', 'Ramp'],
  ['stages', 'Stages'],
  ['soak', 'Soak'],
];

/** A field's message, keyed by the settings field or `stage-<n>-value` / `stage-<n>-duration` (n from 1). */
export type ShapeErrors = Record<string, string>;

const WHOLE = `a whole number from 1 to ${SHAPE_LIMITS.concurrency}`;
const RATE = `a number above 0 and at most ${SHAPE_LIMITS.ratePerSec}`;
const SECONDS = `seconds above 0, at most ${SHAPE_LIMITS.durationS.toLocaleString('en')}`;

function reader(errors: ShapeErrors) {
  const num = (key: string, text: string, ok: (n: number) => boolean, message: string) => {
    const n = text.trim() === '' ? NaN : Number(text);
    if (!ok(n)) errors[key] = message;
    return n;
  };
  return {
    concurrency: (key: string, text: string) =>
      num(key, text, (n) => Number.isInteger(n) && n >= 1 && n <= SHAPE_LIMITS.concurrency, WHOLE),
    rate: (key: string, text: string) =>
      num(key, text, (n) => Number.isFinite(n) && n > 0 && n <= SHAPE_LIMITS.ratePerSec, RATE),
    seconds: (key: string, text: string) =>
      num(key, text, (n) => Number.isFinite(n) && n > 0 && n <= SHAPE_LIMITS.durationS, SECONDS),
  };
}

function stagesOf(stages: readonly StageDraft[], read: ReturnType<typeof reader>) {
  return stages.map((s, k) => {
    const durationS = read.seconds(`stage-${k + 1}-duration`, s.durationS);
    return s.mode === 'concurrency'
      ? { durationS, concurrency: read.concurrency(`stage-${k + 1}-value`, s.value) }
      : { durationS, ratePerSec: read.rate(`stage-${k + 1}-value`, s.value) };
  });
}

/** The shape the fields describe; N × C needs none of them. */
export function shapeInput(settings: LoadSettings): { shape?: LoadShape; errors: ShapeErrors } {
  const errors: ShapeErrors = {};
  const read = reader(errors);
  let candidate: unknown;
  switch (settings.shape) {
    case 'fixed':
      return { shape: { kind: 'fixed' }, errors };
    case 'ramp':
      candidate = {
        kind: 'ramp',
        from: read.concurrency('rampFrom', settings.rampFrom),
        to: read.concurrency('rampTo', settings.rampTo),
        durationS: read.seconds('rampDurationS', settings.rampDurationS),
      };
      break;
    case 'soak':
      candidate = {
        kind: 'soak',
        ratePerSec: read.rate('soakRate', settings.soakRate),
        durationS: read.seconds('soakDurationS', settings.soakDurationS),
        arrival: settings.arrival,
      };
      break;
    case 'stages':
      if (settings.stages.length === 0) errors.stages = 'add a stage';
      candidate = { kind: 'stages', stages: stagesOf(settings.stages, read), arrival: settings.arrival };
      break;
  }
  if (Object.keys(errors).length) return { errors };
  const parsed = LoadShapeSchema.safeParse(candidate);
  // What only the whole shape can break: the stages' total time, their count.
  if (!parsed.success) return { errors: { stages: parsed.error.issues[0]?.message ?? 'not a shape' } };
  return { shape: parsed.data, errors };
}

/** The most requests a shape has in flight, as the record's Concurrency shows it: its peak, or the open-loop cap. */
export function mostInFlight(shape: LoadShape, fixedConcurrency: number): number {
  if (shape.kind === 'fixed') return fixedConcurrency;
  const open = shape.kind === 'soak' || (shape.kind === 'stages' && shape.stages.some((s) => 'ratePerSec' in s));
  return open ? SHAPE_LIMITS.concurrency : (peakConcurrency(shape) ?? SHAPE_LIMITS.concurrency);
}
