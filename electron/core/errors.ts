/**
 * The core's own errors, in one module every service imports: a call's handler throws one of these and
 * `service.ts` turns it into the contract's `Result` failure.
 */
import { describeFsError } from './atomic-file';

/** A call that cannot be done, with the contract's error code (`not_found`, `unwritable`…). */
export class RunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Input that names fields the form should mark: one message per field. */
export class FieldError extends Error {
  constructor(
    readonly fields: Record<string, string>,
    /** `name_taken` when the only problem is a name another item has: the form can then offer to replace it. */
    readonly code: 'invalid_input' | 'name_taken' = 'invalid_input',
  ) {
    super(Object.values(fields).join('; '));
  }
}

/**
 * A data file that could not be written, as the call's error: code `unwritable`, naming the file. Callers
 * throw it only when nothing was changed, so trying again after fixing the folder is safe.
 */
export function unwritable(file: string, err: unknown): RunError {
  return new RunError(
    'unwritable',
    `Nothing was saved: ${file} could not be written (${describeFsError(err)}). ` +
      'Check that the data folder is writable and has free space, then try again.',
  );
}
