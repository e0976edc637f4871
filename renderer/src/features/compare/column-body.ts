/**
 * Pure pieces of a Compare column: its overrides field and what its output reads. Its translated request is in
 * column-request.ts, apart, so the store does not bring the translation into the start-up script.
 */
import type { Transcript } from '../../../../shared/protocols/types';

type Body = Record<string, unknown>;

export type ParsedOverrides = { ok: true; value?: Body } | { ok: false; error: string };

/** The overrides field's text: empty means none; anything but a JSON object is an error, never dropped silently. */
export function parseOverrides(text: string): ParsedOverrides {
  if (!text.trim()) return { ok: true };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not valid JSON (${(err as Error).message})` };
  }
  return v && typeof v === 'object' && !Array.isArray(v)
    ? { ok: true, value: v as Body }
    : { ok: false, error: 'must be a JSON object, like {"temperature": 0.2}' };
}

/** An output as plain text for the word diff; a tool call reads as `[name(args)]`. */
export function textOf(t?: Transcript): string {
  if (!t) return '';
  return t.blocks
    .map((b) =>
      b.kind === 'text' || b.kind === 'refusal' ? b.text : b.kind === 'tool_call' ? `[${b.name}(${b.argsText})]` : '',
    )
    .join('');
}
