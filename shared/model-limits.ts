/**
 * A model's context window and output cap as a gateway's own /v1/models entry states them. Relays name them
 * differently (OpenRouter `context_length` and `top_provider`, vLLM `max_model_len`, the first party's
 * `max_input_tokens`/`max_tokens`); only a positive whole number counts.
 */
import { isObject } from './is-object';

const CONTEXT_KEYS = [
  'context_length',
  'context_window',
  'max_context',
  'max_context_length',
  'max_model_len',
  'max_input_tokens',
];
const OUTPUT_KEYS = ['max_output_tokens', 'max_completion_tokens', 'max_tokens'];

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

function first(entry: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const k of keys) {
    const n = count(entry[k]);
    if (n !== undefined) return n;
  }
  return undefined;
}

export function entryLimits(extra: Record<string, unknown> | undefined): {
  contextWindow?: number;
  maxOutput?: number;
} {
  if (!extra) return {};
  const top = isObject(extra.top_provider) ? extra.top_provider : {};
  return {
    contextWindow: first(extra, CONTEXT_KEYS) ?? first(top, CONTEXT_KEYS),
    maxOutput: first(extra, OUTPUT_KEYS) ?? first(top, OUTPUT_KEYS),
  };
}

/** 200000 → "200K", 1048576 → "1M", 4096 → "4K": how model pages state windows. */
export function tokensShort(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 2)}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}K`;
  return String(n);
}

/**
 * Whether a request can fit: its input plus the output it reserves (max_tokens) against the window. Undefined
 * while either figure is unknown: no warning from a guess.
 */
export function fitWarning(
  inputTokens: number | undefined,
  maxOutput: number | undefined,
  contextWindow: number | undefined,
): string | undefined {
  if (inputTokens === undefined || contextWindow === undefined) return undefined;
  const reserved = maxOutput ?? 0;
  if (inputTokens + reserved <= contextWindow) return undefined;
  const n = (v: number) => v.toLocaleString('en-US');
  if (inputTokens > contextWindow)
    return `Too long for this model: the input alone is ${n(inputTokens)} tokens and the model holds ${n(contextWindow)}. Shorten it before sending.`;
  return `Will not fit: ${n(inputTokens)} input tokens plus ${n(reserved)} reserved for the reply (max tokens) is more than the model’s ${n(contextWindow)}-token context window. Lower max tokens to ${n(contextWindow - inputTokens)} or shorten the input.`;
}

/** The output a request reserves, from whichever cap field its protocol reads (docs/protocols.md §8). */
export function outputCap(body: Record<string, unknown>): number | undefined {
  for (const k of ['max_tokens', 'max_completion_tokens', 'max_output_tokens']) {
    const v = body[k];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return v;
  }
  return undefined;
}
