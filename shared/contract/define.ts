import { z } from 'zod';

/** Errors cross the transport as data, never thrown: Electron keeps only `message` of a thrown error. */
export interface AppError {
  code: string;
  message: string;
  detail?: unknown;
  /** Field name → message, for form validation errors. */
  fields?: Record<string, string>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: string, message: string, extra: Partial<AppError> = {}): Result<never> => ({
  ok: false,
  error: { code, message, ...extra },
});

/** A call: its input schema (checked in the host before the core sees it) and its output type. */
export interface CallSpec<I extends z.ZodType, O> {
  input: I;
  /** Phantom: carries the output type only. */
  output?: O;
}

export function defineCall<O>() {
  return <I extends z.ZodType>(input: I): CallSpec<I, O> => ({ input });
}

/** Largest payload a host accepts for one call (base64 images can be big; upstream caps requests at 32 MB). */
export const MAX_PAYLOAD_BYTES = 32 * 1024 * 1024;
