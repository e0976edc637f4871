/**
 * Anthropic Messages (docs/protocols.md §1): the stream fold and the non-streaming reader. Accumulation mirrors
 * the SDK's MessageStream: cumulative usage, tool input parsed only at content_block_stop.
 */
import { bodyErrorOf, errorEventOf } from '../errors';
import {
  CONTENT_STEP,
  QUIET_STEP,
  cleanUsage,
  completeToolCall,
  createPieces,
  type AppendWatch,
  createWarnings,
  errorOutcome,
  excerpt,
  isObject,
  num,
  parseArgs,
  snapshot,
  str,
  truncatedOutcome,
} from './fold-kit';
import { parseEvent } from './sse';
import type { FastDelta } from './fast-json';
import type {
  Block,
  FoldOutcome,
  FoldStep,
  ParsedEvent,
  ResponseReading,
  SseMessage,
  StreamError,
  StreamFold,
  Usage,
} from './types';

type ToolBlock = Extract<Block, { kind: 'tool_call' }>;

/** docs/protocols.md §8: input_tokens excludes cache reads and writes, so the prompt total adds them back. */
export function messagesUsage(raw: Record<string, unknown>): Usage {
  const input = num(raw.input_tokens);
  const write = num(raw.cache_creation_input_tokens);
  const read = num(raw.cache_read_input_tokens);
  const details = isObject(raw.output_tokens_details) ? raw.output_tokens_details : undefined;
  return cleanUsage({
    inputTotal: input === undefined ? undefined : input + (write ?? 0) + (read ?? 0),
    inputCached: read,
    inputCacheWrite: write,
    output: num(raw.output_tokens),
    reasoning: num(details?.thinking_tokens),
  });
}

/**
 * A refusal as `stop_details` tells it (docs/protocols.md §1.7: `{type:"refusal", category, explanation}`), as
 * the transcript's refusal block, the shape Chat's `refusal` and Responses' refusal part take. Undefined for
 * anything else.
 * The text is the app's wording, not the model's, so the block is marked and never resent as assistant text.
 */
export function refusalFromStopDetails(details: unknown): Extract<Block, { kind: 'refusal' }> | undefined {
  if (!isObject(details) || details.type !== 'refusal') return undefined;
  const explanation = str(details.explanation)?.trim();
  const category = str(details.category)?.trim();
  const text = explanation || 'The model refused.';
  return { kind: 'refusal', text: category ? `${text} (category: ${category})` : text, source: 'stop_details' };
}

/** A response content block (docs/protocols.md §1.7) or a content_block_start block as a transcript block. */
function blockFromContent(cb: Record<string, unknown>, streaming: boolean): Block {
  switch (cb.type) {
    case 'text':
      return { kind: 'text', text: str(cb.text) ?? '' };
    case 'thinking': {
      const b: Block = { kind: 'thinking', text: str(cb.thinking) ?? '' };
      const sig = str(cb.signature);
      if (sig) b.signature = sig;
      return b;
    }
    case 'redacted_thinking': {
      const b: Block = { kind: 'thinking', text: '', redacted: true };
      const data = str(cb.data);
      if (data !== undefined) b.data = data;
      return b;
    }
    case 'tool_use': {
      const input = cb.input;
      const hasInput = isObject(input) && Object.keys(input).length > 0;
      const b: ToolBlock = {
        kind: 'tool_call',
        id: str(cb.id) ?? '',
        name: str(cb.name) ?? '',
        // The stream's start block carries `input: {}` and the arguments follow as input_json_delta; a
        // relay that sends the whole input up front (and no deltas) still gets its arguments kept.
        argsText: !streaming || hasInput ? JSON.stringify(input ?? {}) : '',
        complete: !streaming,
      };
      if (!streaming) b.args = isObject(input) ? input : (input ?? {});
      return b;
    }
    default:
      return { kind: 'other', type: str(cb.type) ?? 'unknown', raw: { ...cb } };
  }
}

interface BlockSlot {
  block: Block;
  /** Set on content_block_stop. */
  stopped: boolean;
  /** input_json_delta for blocks we keep raw (server_tool_use): parsed into raw.input at stop. */
  json?: string;
  /** The tool_use start carried a full input and no delta has replaced it yet. */
  seeded?: boolean;
}

export function createMessagesFold(watch?: AppendWatch): StreamFold {
  const warnings = createWarnings();
  const pieces = createPieces(watch);
  const blocks: Block[] = [];
  const slots = new Map<number, BlockSlot>();
  const head: { id?: string; model?: string; stopReason?: string; rawUsage?: Record<string, unknown> } = {};
  let usage: Usage = {};
  let started = false;
  let stopped = false;
  let error: StreamError | undefined;
  let count = 0;
  let lastStopReasonSeen = false;
  /**
   * message_start's output_tokens is a placeholder (docs/protocols.md §1.8): output counts only once a
   * message_delta reports it.
   */
  let outputReported = false;
  let refusal: Extract<Block, { kind: 'refusal' }> | undefined;

  function setUsage(raw: Record<string, unknown>): void {
    head.rawUsage = raw;
    usage = messagesUsage(raw);
    if (!outputReported) delete usage.output;
  }

  function slotFor(index: unknown, what: string): BlockSlot | undefined {
    const slot = typeof index === 'number' ? slots.get(index) : undefined;
    if (!slot)
      warnings.add(
        `unknown-index:${what}`,
        `${what} for a block that was never started (index ${String(index)}) ignored.`,
      );
    return slot;
  }

  function onDelta(json: Record<string, unknown>): boolean {
    const slot = slotFor(json.index, 'content_block_delta');
    const delta = json.delta;
    if (!slot || !isObject(delta)) return false;
    switch (delta.type) {
      case 'text_delta':
        return addText(slot, 'text_delta', str(delta.text) ?? '');
      case 'thinking_delta':
        return addText(slot, 'thinking_delta', str(delta.thinking) ?? '');
      case 'signature_delta': {
        const b = slot.block;
        // The signature arrives whole, just before content_block_stop: last one wins.
        if (b.kind === 'thinking') b.signature = str(delta.signature) ?? b.signature;
        else mismatch('signature_delta', b);
        return false;
      }
      case 'input_json_delta':
        return addJson(slot, str(delta.partial_json) ?? '');
      default:
        // citations_delta and delta types added later: tolerated, the raw event stays in the Events list.
        return false;
    }
  }

  /** The same as `onDelta`, from the values the fast path read (see fast-json.ts). */
  function onFastDelta(d: Extract<FastDelta, { family: 'messages' }>): boolean {
    const slot = slotFor(d.index, 'content_block_delta');
    if (!slot) return false;
    return d.kind === 'input_json_delta' ? addJson(slot, d.value) : addText(slot, d.kind, d.value);
  }

  function addText(slot: BlockSlot, deltaType: 'text_delta' | 'thinking_delta', t: string): boolean {
    const b = slot.block;
    if ((b.kind === 'text' && deltaType === 'text_delta') || (b.kind === 'thinking' && deltaType === 'thinking_delta'))
      pieces.add(b, 'text', t);
    else return mismatch(deltaType, b);
    return t !== '';
  }

  function addJson(slot: BlockSlot, part: string): boolean {
    const b = slot.block;
    if (b.kind === 'tool_call') {
      if (slot.seeded && part !== '') {
        b.argsText = '';
        slot.seeded = false;
      }
      pieces.add(b, 'argsText', part);
    } else if (b.kind === 'other') {
      slot.json = (slot.json ?? '') + part;
    } else {
      return mismatch('input_json_delta', b);
    }
    return part !== '';
  }

  function mismatch(deltaType: string, b: Block): false {
    warnings.add(`mismatch:${deltaType}:${b.kind}`, `${deltaType} arrived for a ${b.kind} block; ignored.`);
    return false;
  }

  function onStop(json: Record<string, unknown>): void {
    const slot = slotFor(json.index, 'content_block_stop');
    if (!slot) return;
    slot.stopped = true;
    const b = slot.block;
    if (b.kind === 'tool_call') completeToolCall(b);
    else if (b.kind === 'other' && slot.json !== undefined) {
      const parsed = parseArgs(slot.json);
      b.raw = { ...(b.raw as object), input: parsed.argsError === undefined ? parsed.args : slot.json };
    }
  }

  function push(message: SseMessage, parsed: ParsedEvent = parseEvent(message)): FoldStep {
    count++;
    if (stopped || error) {
      // A gateway's `[DONE]` after message_stop is common relay noise (docs/protocols.md, Sources §3.1): not
      // worth a warning.
      if (!parsed.done)
        warnings.add(
          'after-terminal',
          `${parsed.type} arrived after ${error ? 'the error event' : 'message_stop'} and was ignored.`,
        );
      return QUIET_STEP;
    }
    if (parsed.done) {
      warnings.add(
        'done',
        'A [DONE] sentinel arrived before message_stop; Anthropic streams have none, so it was ignored.',
      );
      return QUIET_STEP;
    }
    const fast = parsed.delta;
    // An `event: error` line makes any payload an error (below), so only then is the fast path not taken.
    if (fast?.family === 'messages' && message.event !== 'error') {
      if (!started) warnings.add('before-start', 'content_block_delta arrived before message_start.');
      return onFastDelta(fast) ? CONTENT_STEP : QUIET_STEP;
    }
    pieces.flush();
    const step: FoldStep = { content: false, terminal: false };
    const json = parsed.json;
    if (!isObject(json) && message.event === 'error') {
      // `event: error` with a plain-text payload is still the gateway reporting a failure.
      error = { message: excerpt(message.data, 200) || 'An error event arrived without details.' };
      step.terminal = true;
      return step;
    }
    if (!isObject(json)) {
      warnings.add('malformed', `Event ${count} is not a JSON object and was skipped: ${excerpt(message.data)}`);
      return step;
    }
    const type = json.type;
    if (type === 'error' || (type === undefined && json.error != null) || message.event === 'error') {
      error =
        message.event === 'error' ? errorEventOf(json) : (bodyErrorOf(json) ?? { message: excerpt(message.data, 200) });
      step.terminal = true;
      return step;
    }
    if (type === 'ping') return step;
    if (!started && type !== 'message_start') {
      warnings.add('before-start', `${String(type)} arrived before message_start.`);
    }
    switch (type) {
      case 'message_start': {
        if (started)
          warnings.add('second-start', 'A second message_start arrived; its id and usage replace the first.');
        started = true;
        const m = isObject(json.message) ? json.message : {};
        if (typeof m.id === 'string') head.id = m.id;
        if (typeof m.model === 'string') head.model = m.model;
        if (isObject(m.usage)) setUsage({ ...m.usage });
        break;
      }
      case 'content_block_start': {
        const index = json.index;
        const cb = json.content_block;
        if (typeof index !== 'number' || !isObject(cb)) {
          warnings.add('bad-start', `content_block_start without an index or content_block (event ${count}) ignored.`);
          break;
        }
        if (slots.has(index))
          warnings.add('dup-index', `content_block_start reused index ${index}; a new block was started.`);
        const block = blockFromContent(cb, true);
        const slot: BlockSlot = { block, stopped: false };
        if (block.kind === 'tool_call' && block.argsText !== '') slot.seeded = true;
        slots.set(index, slot);
        blocks.push(block);
        step.content = (block.kind === 'text' || block.kind === 'thinking') && block.text !== '';
        break;
      }
      case 'content_block_delta':
        step.content = onDelta(json);
        break;
      case 'content_block_stop':
        onStop(json);
        break;
      case 'message_delta': {
        const d = isObject(json.delta) ? json.delta : {};
        if (typeof d.stop_reason === 'string') {
          head.stopReason = d.stop_reason;
          lastStopReasonSeen = true;
        }
        const refused = refusalFromStopDetails(d.stop_details);
        if (refused) {
          // A later message_delta repeating it replaces the text rather than adding a second block.
          if (refusal) refusal.text = refused.text;
          else {
            refusal = refused;
            blocks.push(refusal);
            step.content = true;
          }
        }
        // Counters here are cumulative totals: overwrite the ones present, keep message_start's others.
        if (isObject(json.usage)) {
          const merged: Record<string, unknown> = { ...(head.rawUsage ?? {}) };
          for (const [k, v] of Object.entries(json.usage)) if (v !== null && v !== undefined) merged[k] = v;
          if (num(json.usage.output_tokens) !== undefined) outputReported = true;
          setUsage(merged);
        }
        break;
      }
      case 'message_stop':
        stopped = true;
        step.terminal = true;
        if (!lastStopReasonSeen)
          warnings.add('no-stop-reason', 'message_stop arrived without a message_delta carrying a stop_reason.');
        break;
      default:
        // Event types added later are allowed by the protocol: ignore, the raw event is still recorded.
        break;
    }
    return step;
  }

  function warningList(): string[] {
    const list = warnings.list();
    for (const slot of slots.values()) {
      const b = slot.block;
      if (b.kind === 'tool_call' && !slot.stopped && (stopped || error)) {
        list.push(`Tool call ${b.name || b.id} never got its content_block_stop; its arguments are incomplete.`);
      }
    }
    return list;
  }

  return {
    push,
    transcript: () => {
      pieces.flush();
      return snapshot(head, blocks, usage);
    },
    blocks: () => {
      pieces.flush();
      return blocks;
    },
    usage: () => ({ ...usage }),
    warnings: warningList,
    end(): FoldOutcome {
      const list = warningList();
      if (error) return errorOutcome(error, list);
      if (!stopped) return truncatedOutcome('message_stop', count, list);
      return {
        verdict: 'complete',
        reason: `The stream ended with message_stop${head.stopReason ? ` (stop_reason ${head.stopReason})` : ''}.`,
        warnings: list,
      };
    },
  };
}

/** A non-streaming /v1/messages body (docs/protocols.md §1.7). A 2xx body holding an error envelope sets `error`. */
export function readMessagesResponse(json: unknown): ResponseReading {
  const warnings: string[] = [];
  const error = bodyErrorOf(json);
  if (!isObject(json)) {
    return {
      transcript: { blocks: [], usage: {} },
      warnings: ['The body is not a JSON object.'],
      ...(error ? { error } : {}),
    };
  }
  const blocks: Block[] = [];
  if (Array.isArray(json.content)) {
    for (const cb of json.content) if (isObject(cb)) blocks.push(blockFromContent(cb, false));
  } else if (!error) {
    warnings.push('The body has no content array.');
  }
  const refusal = refusalFromStopDetails(json.stop_details);
  if (refusal) blocks.push(refusal);
  const head: { id?: string; model?: string; stopReason?: string; rawUsage?: unknown } = {};
  if (typeof json.id === 'string') head.id = json.id;
  if (typeof json.model === 'string') head.model = json.model;
  if (typeof json.stop_reason === 'string') head.stopReason = json.stop_reason;
  let usage: Usage = {};
  if (isObject(json.usage)) {
    head.rawUsage = json.usage;
    usage = messagesUsage(json.usage);
  }
  const transcript = snapshot(head, blocks, usage);
  return error ? { transcript, error, warnings } : { transcript, warnings };
}
