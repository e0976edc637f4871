/**
 * OpenAI Chat Completions (docs/protocols.md §3): the stream fold and the non-streaming reader. Frames are
 * data-only; the stream is complete only with a finish_reason and the `data: [DONE]` sentinel.
 */
import { bodyErrorOf } from '../errors';
import {
  CONTENT_STEP,
  QUIET_STEP,
  completeToolCall,
  createPieces,
  type AppendWatch,
  createWarnings,
  errorOutcome,
  excerpt,
  isObject,
  openAiUsage,
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
import { plural } from '../plural';

type ToolBlock = Extract<Block, { kind: 'tool_call' }>;
type TextLike = Extract<Block, { kind: 'text' | 'thinking' | 'refusal' }>;

/** Legacy `function_call` deltas (pre-tools API) share the tool-call map under a key no index can take. */
const LEGACY_FUNCTION_CALL = -1;

/** DeepSeek-style relays send `reasoning_content`; OpenRouter-style ones send `reasoning`. */
function reasoningOf(obj: Record<string, unknown>): string | undefined {
  return str(obj.reasoning_content) ?? str(obj.reasoning);
}

export function createChatFold(watch?: AppendWatch): StreamFold {
  const warnings = createWarnings();
  const pieces = createPieces(watch);
  const blocks: Block[] = [];
  const head: { id?: string; model?: string; stopReason?: string; rawUsage?: unknown } = {};
  let usage: Usage = {};
  let text: TextLike | undefined;
  let thinking: TextLike | undefined;
  let refusal: TextLike | undefined;
  /** The call currently accumulating at each `index`. */
  const calls = new Map<number, ToolBlock>();
  let finished = false;
  let done = false;
  let error: StreamError | undefined;
  let count = 0;
  let contentSeen = false;

  function append(kind: 'text' | 'thinking' | 'refusal', piece: string): boolean {
    if (piece === '') return false;
    let b = kind === 'text' ? text : kind === 'thinking' ? thinking : refusal;
    if (!b) {
      const fresh: TextLike = { kind, text: '' };
      blocks.push(fresh);
      if (kind === 'text') text = fresh;
      else if (kind === 'thinking') thinking = fresh;
      else refusal = fresh;
      b = fresh;
    }
    pieces.add(b, 'text', piece);
    return true;
  }

  function onToolDelta(index: number, tc: Record<string, unknown>): boolean {
    const fn = isObject(tc.function) ? tc.function : tc;
    const id = str(tc.id);
    const name = str(fn.name);
    const args = str(fn.arguments) ?? '';
    let call = calls.get(index);
    // docs/protocols.md §9.10: some OpenAI-compatible backends send every parallel call at index 0 and tell
    // them apart only by id, so a new id at a used index starts a new call.
    if (call && id && call.id && id !== call.id) {
      completeToolCall(call);
      call = undefined;
    }
    if (!call) {
      call = { kind: 'tool_call', id: id ?? '', name: name ?? '', argsText: '', complete: false };
      calls.set(index, call);
      blocks.push(call);
    } else {
      if (id && !call.id) call.id = id;
      if (name && !call.name) call.name = name;
    }
    call.argsText += args;
    if (args !== '') watch?.(call, args);
    return args !== '';
  }

  function finishCalls(): void {
    for (const call of calls.values()) if (!call.complete) completeToolCall(call);
  }

  function onChunk(json: Record<string, unknown>): boolean {
    if (head.id === undefined && typeof json.id === 'string') head.id = json.id;
    if (head.model === undefined && typeof json.model === 'string') head.model = json.model;
    // With include_usage every chunk carries `usage: null` until the final one: keep the last real object.
    if (isObject(json.usage)) {
      head.rawUsage = json.usage;
      usage = openAiUsage(json.usage);
    }
    let content = false;
    if (!Array.isArray(json.choices)) return false;
    for (const choice of json.choices) {
      if (!isObject(choice)) continue;
      const index = typeof choice.index === 'number' ? choice.index : 0;
      if (index !== 0) {
        warnings.add('n>1', `Choice ${index} ignored: only the first choice is folded (n > 1).`);
        continue;
      }
      const delta = isObject(choice.delta) ? choice.delta : undefined;
      if (delta) {
        const reasoning = reasoningOf(delta);
        if (reasoning !== undefined && append('thinking', reasoning)) content = true;
        if (typeof delta.content === 'string' && append('text', delta.content)) content = true;
        if (typeof delta.refusal === 'string' && append('refusal', delta.refusal)) content = true;
        if (Array.isArray(delta.tool_calls)) {
          delta.tool_calls.forEach((tc, position) => {
            if (!isObject(tc)) return;
            const i = typeof tc.index === 'number' ? tc.index : position;
            if (onToolDelta(i, tc)) content = true;
          });
        }
        if (isObject(delta.function_call) && onToolDelta(LEGACY_FUNCTION_CALL, delta.function_call)) content = true;
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
        head.stopReason = choice.finish_reason;
        finished = true;
        finishCalls();
      }
    }
    return content;
  }

  /** The same as `onChunk` for a chunk that carries only choice 0's content (see fast-json.ts). */
  function onFastChunk(d: Extract<FastDelta, { family: 'chat' }>): boolean {
    return append('text', d.content);
  }

  function push(message: SseMessage, parsed: ParsedEvent = parseEvent(message)): FoldStep {
    count++;
    if (done || error) {
      if (!parsed.done)
        warnings.add(
          'after-terminal',
          `${parsed.type} arrived after ${error ? 'the error' : '[DONE]'} and was ignored.`,
        );
      return QUIET_STEP;
    }
    if (parsed.done) {
      done = true;
      return { content: false, terminal: true };
    }
    const fast = parsed.delta;
    // The fast values leave out the chunk's id and model: the first chunk, which names them, takes the full path.
    if (fast?.family === 'chat' && message.event !== 'error' && head.id !== undefined && head.model !== undefined) {
      if (!onFastChunk(fast)) return QUIET_STEP;
      contentSeen = true;
      return CONTENT_STEP;
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
    // A top-level `error` (OpenRouter-style chunks with empty choices, or `event: error`) ends the stream.
    const err = bodyErrorOf(json);
    if (err || message.event === 'error') {
      error = err ?? { message: excerpt(message.data, 200) };
      step.terminal = true;
      return step;
    }
    step.content = onChunk(json);
    if (step.content) contentSeen = true;
    return step;
  }

  function outcome(): FoldOutcome {
    const list = warnings.list();
    if (error) return errorOutcome(error, list);
    if (!finished) {
      if (done) {
        return {
          verdict: 'truncated',
          reason: `The stream sent [DONE] without any finish_reason (${plural(count, 'event')} received): the answer may be cut short.`,
          warnings: list,
        };
      }
      return truncatedOutcome('a finish_reason and data: [DONE]', count, list);
    }
    if (!contentSeen && head.rawUsage === undefined && blocks.length === 0) {
      list.push('The stream finished but carried no content and no usage: the upstream may have reset.');
    }
    if (!done) {
      list.push('no [DONE] sentinel: the stream closed after finish_reason without data: [DONE].');
      return {
        verdict: 'complete',
        reason: `The stream ended after finish_reason ${head.stopReason} but without [DONE].`,
        warnings: list,
      };
    }
    return {
      verdict: 'complete',
      reason: `The stream ended with finish_reason ${head.stopReason} and [DONE].`,
      warnings: list,
    };
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
    warnings: () => warnings.list(),
    end: outcome,
  };
}

function toolCallFrom(tc: Record<string, unknown>): ToolBlock {
  const fn = isObject(tc.function) ? tc.function : tc;
  const argsText = str(fn.arguments) ?? (isObject(fn.arguments) ? JSON.stringify(fn.arguments) : '');
  const call: ToolBlock = {
    kind: 'tool_call',
    id: str(tc.id) ?? '',
    name: str(fn.name) ?? '',
    argsText,
    complete: true,
  };
  const parsed = parseArgs(argsText);
  if (parsed.argsError !== undefined) call.argsError = parsed.argsError;
  else call.args = parsed.args;
  return call;
}

/** Message content may be a string or (some gateways) an array of `{type:"text",text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

/**
 * A non-streaming /v1/chat/completions body (docs/protocols.md §3.3). A 2xx body holding an error envelope sets
 * `error`.
 */
export function readChatResponse(json: unknown): ResponseReading {
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
  const head: { id?: string; model?: string; stopReason?: string; rawUsage?: unknown } = {};
  if (typeof json.id === 'string') head.id = json.id;
  if (typeof json.model === 'string') head.model = json.model;
  const choices = Array.isArray(json.choices) ? json.choices : undefined;
  if (!choices && !error) warnings.push('The body has no choices array.');
  if (choices && choices.length > 1) warnings.push(`${choices.length} choices returned; only the first is shown.`);
  const choice: unknown = choices?.[0];
  if (isObject(choice)) {
    const m = isObject(choice.message) ? choice.message : {};
    const reasoning = reasoningOf(m);
    if (reasoning) blocks.push({ kind: 'thinking', text: reasoning });
    const text = contentText(m.content);
    if (text !== '') blocks.push({ kind: 'text', text });
    if (typeof m.refusal === 'string' && m.refusal !== '') blocks.push({ kind: 'refusal', text: m.refusal });
    if (Array.isArray(m.tool_calls)) for (const tc of m.tool_calls) if (isObject(tc)) blocks.push(toolCallFrom(tc));
    if (isObject(m.function_call)) blocks.push(toolCallFrom(m.function_call));
    if (typeof choice.finish_reason === 'string') head.stopReason = choice.finish_reason;
  }
  let usage: Usage = {};
  if (isObject(json.usage)) {
    head.rawUsage = json.usage;
    usage = openAiUsage(json.usage);
  }
  const transcript = snapshot(head, blocks, usage);
  return error ? { transcript, error, warnings } : { transcript, warnings };
}
