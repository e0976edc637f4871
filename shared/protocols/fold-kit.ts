/**
 * Small pieces the three protocol folds and readers share. Internal to shared/protocols.
 */
import type { Block, FoldOutcome, FoldStep, StreamError, Transcript, Usage } from './types';
import { isObject } from '../is-object';

export { isObject };

/**
 * The steps a hot delta can fold to, shared: a new object per event was about 7% of what a 20k-event Messages
 * firehose allocated in the core.
 */
export const CONTENT_STEP: FoldStep = Object.freeze({ content: true, terminal: false });
export const QUIET_STEP: FoldStep = Object.freeze({ content: false, terminal: false });

/** How many streamed pieces are held before they are joined into their block's field. */
export const PIECES_PER_JOIN = 256;

/**
 * Streamed text appended to a block's `text` or `argsText` in batches. `block.text += piece` for every delta
 * built a rope of one link per delta, each link holding a slice that pins the network chunk it came from, all
 * of it as long-lived as the run: 40k objects for a 20k-delta firehose that the garbage collector copied out
 * of the young generation. Joined every PIECES_PER_JOIN pieces, the text is a few hundred flat strings and the
 * slices die young (measured on the Messages firehose in the core: about 1 MB less promoted per run and a
 * tenth less CPU per run).
 *
 * The field lags while pieces wait. So the fold's rule: `flush()` before folding any event that does not
 * append through here, and in `transcript()`, the one way blocks leave the fold.
 */
/**
 * Told of every piece of streamed text as a fold appends it, with the block it grows: the core reads the text
 * as it grows for secrets split over deltas (docs/security.md §4) without reading the blocks' fields.
 */
export type AppendWatch = (block: object, piece: string) => void;

export function createPieces(watch?: AppendWatch) {
  type Field = 'text' | 'argsText';
  let target: Partial<Record<Field, string>> | undefined;
  let field: Field = 'text';
  const parts: string[] = [];
  function flush(): void {
    if (target !== undefined && parts.length > 0) target[field] += parts.join('');
    parts.length = 0;
    target = undefined;
  }
  return {
    add<F extends Field>(block: Record<F, string>, to: F, piece: string): void {
      if (block !== target || to !== field) {
        flush();
        target = block;
        field = to;
      }
      parts.push(piece);
      watch?.(block, piece);
      if (parts.length >= PIECES_PER_JOIN) flush();
    },
    flush,
  };
}

/** A usable token count, or undefined: gateways send null, strings or nothing for counters they lack. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Drops undefined fields so "not reported" stays absent (and deep equality stays simple). */
export function cleanUsage(usage: Usage): Usage {
  const out: Usage = {};
  if (usage.inputTotal !== undefined) out.inputTotal = usage.inputTotal;
  if (usage.inputCached !== undefined) out.inputCached = usage.inputCached;
  if (usage.inputCacheWrite !== undefined) out.inputCacheWrite = usage.inputCacheWrite;
  if (usage.output !== undefined) out.output = usage.output;
  if (usage.reasoning !== undefined) out.reasoning = usage.reasoning;
  return out;
}

/** OpenAI-family usage (Chat `prompt_*`/`completion_*`, Responses `input_*`/`output_*`), docs/protocols.md §8. */
export function openAiUsage(raw: Record<string, unknown>): Usage {
  const inDetails = isObject(raw.prompt_tokens_details)
    ? raw.prompt_tokens_details
    : isObject(raw.input_tokens_details)
      ? raw.input_tokens_details
      : undefined;
  const outDetails = isObject(raw.completion_tokens_details)
    ? raw.completion_tokens_details
    : isObject(raw.output_tokens_details)
      ? raw.output_tokens_details
      : undefined;
  return cleanUsage({
    inputTotal: num(raw.prompt_tokens) ?? num(raw.input_tokens),
    inputCached: num(inDetails?.cached_tokens),
    inputCacheWrite: num(inDetails?.cache_write_tokens),
    output: num(raw.completion_tokens) ?? num(raw.output_tokens),
    reasoning: num(outDetails?.reasoning_tokens),
  });
}

/** Tool-call arguments are only parsed once complete: partial JSON is never valid. Empty means `{}`. */
export function parseArgs(text: string): { args?: unknown; argsError?: string } {
  if (text.trim() === '') return { args: {} };
  try {
    return { args: JSON.parse(text) };
  } catch (err) {
    return { argsError: err instanceof Error ? err.message : String(err) };
  }
}

export function completeToolCall(block: Extract<Block, { kind: 'tool_call' }>): void {
  const parsed = parseArgs(block.argsText);
  if (parsed.argsError !== undefined) {
    block.argsError = parsed.argsError;
    delete block.args;
  } else {
    block.args = parsed.args;
    delete block.argsError;
  }
  block.complete = true;
}

/** O(blocks): each block object is copied, strings are shared (they are immutable). */
export function snapshot(
  head: { id?: string; model?: string; stopReason?: string; rawUsage?: unknown },
  blocks: Block[],
  usage: Usage,
): Transcript {
  const t: Transcript = { blocks: blocks.map((b) => ({ ...b })), usage: { ...usage } };
  if (head.id !== undefined) t.id = head.id;
  if (head.model !== undefined) t.model = head.model;
  if (head.stopReason !== undefined) t.stopReason = head.stopReason;
  if (head.rawUsage !== undefined) t.rawUsage = head.rawUsage;
  return t;
}

/**
 * Warnings with a bound: a firehose of identical problems (20k malformed events, a sequence gap on every
 * event) becomes one line with a count instead of 20k lines.
 */
export function createWarnings() {
  const order: string[] = [];
  const byKey = new Map<string, { message: string; count: number }>();
  return {
    add(key: string, message: string = key): void {
      const seen = byKey.get(key);
      if (seen) {
        seen.count++;
        return;
      }
      byKey.set(key, { message, count: 1 });
      order.push(key);
    },
    list(): string[] {
      return order.map((key) => {
        const w = byKey.get(key)!;
        return w.count > 1 ? `${w.message} (and ${w.count - 1} more like it)` : w.message;
      });
    },
  };
}
export type Warnings = ReturnType<typeof createWarnings>;

export function eventsReceived(count: number): string {
  if (count === 0) return 'no events received';
  return count === 1 ? '1 event received' : `${count} events received`;
}

export function truncatedOutcome(missing: string, count: number, warnings: string[]): FoldOutcome {
  return {
    verdict: 'truncated',
    reason: `The connection closed before ${missing} arrived (${eventsReceived(count)}).`,
    warnings,
  };
}

export function errorOutcome(error: StreamError, warnings: string[]): FoldOutcome {
  const label = [error.type, error.code].filter((x) => x !== undefined && x !== '').join(' / ');
  return {
    verdict: 'error-event',
    reason: `The gateway sent an error inside the stream${label ? ` (${label})` : ''}: ${error.message}`,
    error,
    warnings,
  };
}

/** A short, safe excerpt of raw data for a warning. */
export function excerpt(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A tool result names the call it answers by id (`tool_use_id`, `tool_call_id`, `call_id`): calls that share
 * an id, or have none (some OpenAI-compatible backends leave it out), cannot each be answered.
 */
export function callIdWarnings(blocks: readonly Block[]): string[] {
  const counts = new Map<string, number>();
  for (const b of blocks) if (b.kind === 'tool_call') counts.set(b.id, (counts.get(b.id) ?? 0) + 1);
  const out: string[] = [];
  for (const [id, n] of counts) {
    if (id === '')
      out.push(
        `${n === 1 ? 'A tool call has' : `${n} tool calls have`} no id: a tool result cannot name the call it answers.`,
      );
    else if (n > 1) out.push(`${n} tool calls share the id ${id}: the gateway cannot tell their results apart.`);
  }
  return out;
}
