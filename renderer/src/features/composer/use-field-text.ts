import { useId, useState, type ChangeEvent } from 'react';
import type { FieldCodec } from './body-fields';
import { useReportFieldError } from './field-errors';

interface Typed {
  text: string;
  /** The body's value, as the field formats it, right after this text was typed. */
  stands: string;
  error?: string;
}

/**
 * A text field over one body value. The body holds the value, not the text, and many texts mean one value
 * ("0." and "0", "a\n" and "a"): writing the body's value back into the field on every keystroke would eat the
 * "." of "0.7" and the new line of a second stop sequence. So the field shows what the user typed while that
 * still stands for the body's value, and the body's value once it changed elsewhere (JSON editor, preset,
 * Continue). Text that means no value (`abc` in a number field) leaves the body as it was, says so, and, for a field
 * with a `name`, holds Send while it stands (field-errors.ts): the body must not go out with a value not shown.
 */
export function useFieldText(value: unknown, codec: FieldCodec, write: (value: unknown) => void, name?: string) {
  const errorId = useId();
  const shown = codec.format(value);
  const [typed, setTyped] = useState<Typed>();
  const current = typed?.stands === shown ? typed : undefined;
  // The body moved on: forget the typed text, so it cannot come back if the body later returns to that value.
  if (typed && !current) setTyped(undefined);
  useReportFieldError(name, current?.error);
  return {
    error: current?.error,
    errorId,
    props: {
      value: current ? current.text : shown,
      'aria-invalid': current?.error ? true : undefined,
      'aria-describedby': current?.error ? errorId : undefined,
      onChange(e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
        const text = e.target.value;
        const r = codec.read(text);
        if ('error' in r) return setTyped({ text, stands: shown, error: r.error });
        setTyped({ text, stands: codec.format(r.value) });
        write(r.value);
      },
    },
  };
}
