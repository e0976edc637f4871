/** A Compare column's request: the shared prompt translated into its protocol (docs/architecture.md §9). */
import type { CompareColumn } from '../../../../shared/contract';
import { translateRequest, type TranslateResult } from '../../../../shared/translate';

type Body = Record<string, unknown>;

/** The shared prompt (Messages shape) translated into the column's protocol, with its model and overrides. */
export function columnBody(shared: Body, column: CompareColumn): TranslateResult {
  const t = translateRequest('messages', column.protocol, shared);
  if (!t.ok) return t;
  return { ...t, body: { ...t.body, model: column.model, ...column.overrides } };
}
