/**
 * Types shared by the three chat protocols. Everything here is plain data: it crosses IPC, is written to
 * history and is folded identically in the core and in the renderer.
 */
import type { FastDelta } from './fast-json';

export type ProtocolId = 'messages' | 'chat' | 'responses';

export const PROTOCOL_IDS: readonly ProtocolId[] = ['messages', 'chat', 'responses'];

export const PROTOCOL_INFO: Record<ProtocolId, { path: string; label: string; family: 'anthropic' | 'openai' }> = {
  messages: { path: '/v1/messages', label: 'Messages', family: 'anthropic' },
  chat: { path: '/v1/chat/completions', label: 'Chat Completions', family: 'openai' },
  responses: { path: '/v1/responses', label: 'Responses', family: 'openai' },
};

/**
 * Usage normalised across protocols (docs/protocols.md §8). A field that the gateway did not report is
 * `undefined`, never 0: the UI labels it "not reported".
 */
export interface Usage {
  /** Whole prompt: Anthropic input + cache write + cache read; OpenAI prompt/input tokens. */
  inputTotal?: number;
  /** Cache-read tokens (Anthropic cache_read_input_tokens, OpenAI cached_tokens). */
  inputCached?: number;
  /** Cache-write tokens (Anthropic cache_creation_input_tokens, OpenAI cache_write_tokens). */
  inputCacheWrite?: number;
  output?: number;
  /** Thinking / reasoning tokens. */
  reasoning?: number;
}

export type Block =
  | { kind: 'text'; text: string }
  | {
      kind: 'thinking';
      text: string;
      signature?: string;
      redacted?: boolean;
      /** Anthropic redacted_thinking payload: opaque, echoed back unchanged on the next turn. */
      data?: string;
      /**
       * The Responses reasoning output item as received (id, summary, encrypted_content): a stateless tool
       * loop (store:false) must send it back before the function_call it preceded.
       */
      item?: Record<string, unknown>;
    }
  | {
      kind: 'tool_call';
      /** tool_use id / tool_calls[].id / function_call call_id */
      id: string;
      name: string;
      /** Arguments as streamed (raw JSON text, possibly partial). */
      argsText: string;
      /** Parsed arguments, set once complete and valid JSON. */
      args?: unknown;
      /** Why argsText did not parse, once complete. */
      argsError?: string;
      complete: boolean;
    }
  | {
      kind: 'refusal';
      text: string;
      /** `stop_details`: the app's wording of an Anthropic stop_details refusal, not text the model produced. */
      source?: 'stop_details';
    }
  /** A block type we do not model (server tools, citations containers, hosted tool calls…): kept, shown raw. */
  | { kind: 'other'; type: string; raw: unknown };

export interface Transcript {
  /** Response id (msg_…, chatcmpl-…, resp_…). */
  id?: string;
  model?: string;
  blocks: Block[];
  /** The protocol's own stop word: stop_reason / finish_reason / status(+incomplete reason). */
  stopReason?: string;
  usage: Usage;
  /** The last usage object as the gateway sent it. */
  rawUsage?: unknown;
}

/** One SSE message as parsed off the wire (before JSON parsing). */
export interface SseMessage {
  event?: string;
  data: string;
}

/** One SSE message after the single JSON.parse shared by the Events list and the fold. */
export interface ParsedEvent {
  /** What the Events list shows: see `eventTypeOf`. */
  type: string;
  /** The parsed payload; undefined for `[DONE]` and for data that is not JSON. */
  json?: unknown;
  /** The data was the `[DONE]` sentinel. */
  done?: boolean;
  /** The data was not valid JSON (and not `[DONE]`). */
  malformed?: boolean;
  /** On a hot delta event, the event itself with the values a fold reads (see fast-json.ts): folds use them instead of `json`. */
  delta?: FastDelta;
}

/** One raw event as recorded by the core and shown in the Events list. */
export interface RawEvent {
  /** 0-based order within the run. */
  seq: number;
  /** ms since the request started. */
  t: number;
  /** JSON `type`, or the event line, or `chunk` (Chat), `[DONE]`, `comment`, `malformed`. */
  type: string;
  /** The SSE `event:` line, when present. */
  event?: string;
  /** The data payload exactly as received (comments: the comment text). */
  data: string;
  /** Bytes of this event on the wire (approximate: data + event line). */
  size: number;
}

export type Verdict =
  'complete' | 'truncated' | 'error-event' | 'http-error' | 'network-error' | 'timeout' | 'cancelled';

export const VERDICTS: readonly Verdict[] = [
  'complete',
  'truncated',
  'error-event',
  'http-error',
  'network-error',
  'timeout',
  'cancelled',
];

/** An error reported inside a stream or a 200 body. */
export interface StreamError {
  type?: string;
  code?: string;
  message: string;
}

/** What a fold says about how the stream ended, once the transport ended cleanly (EOF). */
export interface FoldOutcome {
  verdict: 'complete' | 'truncated' | 'error-event';
  /** In words, for the user: e.g. "the stream closed before message_stop". */
  reason: string;
  error?: StreamError;
  warnings: string[];
}

/** What folding one event told us. Read it at once: a fold may hand out the same frozen step again. */
export interface FoldStep {
  /** The event carried visible content (text, thinking, tool-call arguments, refusal): used for time to first token. */
  content: boolean;
  /** The protocol's terminal marker (or an error event) arrived with this event. */
  terminal: boolean;
}

/**
 * A stream fold: deterministic, no I/O. Fed SSE messages in order, it keeps the transcript, detects the
 * protocol's terminal marker, error events, malformed or out-of-order events.
 */
export interface StreamFold {
  /** `parsed` lets a caller that already ran `parseEvent(message)` avoid a second JSON.parse. */
  push(message: SseMessage, parsed?: ParsedEvent): FoldStep;
  /** A fresh immutable copy of the transcript so far (safe to hand to React). */
  transcript(): Transcript;
  /** The blocks so far as the fold holds them, not copied: to be read, never kept or changed. */
  blocks(): readonly Block[];
  /** The usage reported so far: all a load row reads, without copying the transcript out. */
  usage(): Usage;
  /** Called when the body ended (EOF). */
  end(): FoldOutcome;
  /** Warnings so far (malformed events, sequence gaps, events after the terminal marker…). */
  warnings(): string[];
}

/** A non-streaming body read into the same shape. */
export interface ResponseReading {
  transcript: Transcript;
  /** An error envelope inside a 2xx body (some gateways do this). */
  error?: StreamError;
  warnings: string[];
}
