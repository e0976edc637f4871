/**
 * Server-sent events off the wire: bytes → SSE messages (eventsource-parser does the framing), and the one
 * JSON parse per message that both the Events list and the protocol folds use.
 */
import { createParser } from 'eventsource-parser';
import type { ParsedEvent, SseMessage } from './types';
import { createFastDeltaReader, fastDelta } from './fast-json';
import { isObject } from '../is-object';

export interface SseReaderHandlers {
  onMessage: (message: SseMessage) => void;
  /** `: keep-alive` lines: gateways send them to hold idle connections open. */
  onComment?: (text: string) => void;
}

export interface SseReader {
  feed(chunk: Uint8Array | string): void;
  /** The body ended: flush the decoder and any event still waiting for its blank line. */
  end(): void;
}

/**
 * Bytes → text for a streamed body: a multi-byte character split across two network chunks is held back
 * until its last byte arrives instead of becoming U+FFFD. Node's `StringDecoder` has exactly this shape and
 * is several times faster than `TextDecoder` in streaming mode, so the core passes one in.
 */
export interface StreamTextDecoder {
  write(chunk: Uint8Array): string;
  end(): string;
}

function textDecoderStream(): StreamTextDecoder {
  const decoder = new TextDecoder('utf-8');
  return { write: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
}

export function createSseReader(
  handlers: SseReaderHandlers,
  decoder: StreamTextDecoder = textDecoderStream(),
): SseReader {
  const onComment = handlers.onComment;
  const parser = createParser({
    // The parser's own event object is an SseMessage (plus the `id:` field): handed on as it is, not copied,
    // since a firehose makes one per event.
    onEvent: handlers.onMessage,
    onComment: onComment ? (text) => onComment(text) : undefined,
  });
  let ended = false;
  let first = true;
  const feedText = (text: string) => {
    if (text === '') return;
    if (first) {
      first = false;
      // The SSE spec strips one leading BOM; TextDecoder does so itself, StringDecoder does not.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    parser.feed(text);
  };
  return {
    feed(chunk) {
      if (ended) return;
      feedText(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    },
    end() {
      if (ended) return;
      ended = true;
      // The SSE spec drops an event that never got its blank line, but real bodies end without one (the
      // Anthropic SDK's recorded fixtures end `data: {"type":"message_stop"}\n`): dispatch it instead of
      // silently losing the terminal marker. A half-written line then shows up as a malformed event.
      feedText(`${decoder.end()}\n\n`);
    },
  };
}

const DONE = '[DONE]';

/**
 * Parses one message's data once. The type is, in order: the JSON `type` field (Anthropic, Responses);
 * `[DONE]`; the `event:` line; for a Chat chunk (Chat frames are data-only) `error` when it carries one, else
 * what it carries (see `chatChunkType`); `error` for a top-level error envelope; else `malformed`. Data that is
 * not JSON keeps its `event:` line as the type (`event: error` + `data: Internal Server Error` is still an
 * error) and is flagged `malformed`.
 */
export function parseEvent(message: SseMessage): ParsedEvent {
  return parseWith(message, fastDelta);
}

/** `parseEvent` for the events of one stream, in order: its hot deltas are read by templates learned from it (see `createFastDeltaReader`). */
export function createEventParser(): (message: SseMessage) => ParsedEvent {
  const fast = createFastDeltaReader();
  return (message) => parseWith(message, fast);
}

function parseWith(
  message: SseMessage,
  readDelta: (data: string, event?: string) => ParsedEvent | undefined,
): ParsedEvent {
  const data = message.data;
  if (data === DONE || (data.length < 16 && data.trim() === DONE)) return { type: DONE, done: true };
  // A hot delta is its own ParsedEvent, typed as below: a Chat chunk's type is its `event:` line when it has one.
  const fast = readDelta(data, message.event);
  if (fast !== undefined) return fast;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return { type: message.event || 'malformed', malformed: true };
  }
  if (isObject(json)) {
    const type = json.type;
    if (typeof type === 'string' && type !== '') return { type, json };
    if (message.event) return { type: message.event, json };
    if (json.object === 'chat.completion.chunk') {
      return { type: json.error != null ? 'error' : chatChunkType(json), json };
    }
    if (json.error != null) return { type: 'error', json };
    if (Array.isArray(json.choices)) return { type: chatChunkType(json), json };
    return { type: 'malformed', json };
  }
  return { type: message.event || 'malformed', json };
}

/**
 * What the Events list calls a Chat chunk (docs/protocols.md §3.6), so its type filter can pick out the parts of
 * a stream: the first of `usage`, `finish`, `tool_calls`, `role`, `content` that the chunk carries. A chunk
 * carrying several gets the rarest, which marks a point in the stream a user looks for: the final count, the
 * finish_reason (a relay that sends it with the last text makes that text's chunk `finish`), a tool call's
 * name or arguments (the first one usually carries the role too), then the role. `content` is any text: the
 * answer, a refusal, or visible reasoning. A chunk with none of them (an empty delta, a relay's filter
 * results) stays `chunk`. The template path (fast-json.ts) reads only chunks whose delta is text alone.
 */
export function chatChunkType(json: Record<string, unknown>): string {
  if (isObject(json.usage)) return 'usage';
  let found = 'chunk';
  const choices = Array.isArray(json.choices) ? json.choices : [];
  for (const c of choices) {
    if (!isObject(c)) continue;
    if (typeof c.finish_reason === 'string' && c.finish_reason !== '') return 'finish';
    const d = c.delta;
    if (!isObject(d)) continue;
    if ((Array.isArray(d.tool_calls) && d.tool_calls.length > 0) || isObject(d.function_call)) found = 'tool_calls';
    else if (typeof d.role === 'string' && found !== 'tool_calls') found = 'role';
    else if (found === 'chunk' && CHAT_TEXT_KEYS.some((k) => typeof d[k] === 'string')) found = 'content';
  }
  return found;
}

const CHAT_TEXT_KEYS = ['content', 'refusal', 'reasoning_content', 'reasoning'] as const;

/** The type shown in the Events list for one message (see `parseEvent`). */
export function eventTypeOf(message: SseMessage): string {
  return parseEvent(message).type;
}
