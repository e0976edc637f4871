import type { z } from 'zod';

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

/** Largest payload a host accepts for one call, in UTF-8 bytes (base64 images can be big; upstream caps requests at 32 MB). */
export const MAX_PAYLOAD_BYTES = 32 * 1024 * 1024;

/**
 * Largest WebSocket frame the browser host reads: a call's payload plus its envelope. A bigger frame closes
 * the socket (and cancels that tab's runs), so the renderer refuses such a call itself before sending it.
 */
export const MAX_FRAME_BYTES = MAX_PAYLOAD_BYTES + 64 * 1024;

/** A call refused for its size, in the same words wherever it is caught (the core, or a tab before sending). */
export const tooLarge = (bytes: number): Result<never> =>
  fail(
    'too_large',
    `The payload is ${(bytes / 1048576).toFixed(1)} MB; the limit is ${MAX_PAYLOAD_BYTES / 1048576} MB.`,
  );
