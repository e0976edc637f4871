/**
 * A fast path for the delta shapes that make up almost all of a long stream (a text, thinking or argument
 * delta in each protocol, laid out exactly as the upstream APIs serialise them). Each template matches only
 * strictly valid JSON of that layout and yields the few values a fold reads from it; anything else — another
 * field order, padding, an extra key — returns undefined and takes the ordinary JSON.parse.
 *
 * Why by hand: V8's JSON.parse costs ~0.6 µs on a 90-byte Messages delta and ~1 µs on a Chat chunk, more
 * than SSE framing itself; one anchored regex test costs ~0.1 µs. The folds take the values read at the
 * template's offsets (`FastDelta`), so no payload objects are built at all: building the Chat chunk's five
 * objects and walking them in the fold cost a 20k-event firehose more than the parse did. The payload is still
 * there for anyone who asks (`ParsedEvent.json` parses the data then).
 */

/**
 * A JSON string literal, by the JSON grammar: no raw control characters, only valid escapes. Written as an
 * unrolled loop (plain run, then escape + plain run, repeated) so every string matches exactly one way: the
 * ambiguous `(?:[^"]+|\\.)*` backtracks exponentially when a long literal is followed by a mismatch.
 */
const PLAIN = String.raw`[^"\\\u0000-\u001f]*`;
const STR = String.raw`"${PLAIN}(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})${PLAIN})*"`;
const INT = '(?:0|[1-9][0-9]{0,15})';
/** Optional string-valued keys some deployments add (`include_obfuscation` padding, service tier). */
const OBFUSCATION = `(?:,"obfuscation":${STR})?`;

/** What follows each template's value literal, up to the end of the event. */
const MESSAGES_TAIL = String.raw`\}\}`;
const RESPONSES_TEXT_TAIL = String.raw`,"logprobs":\[\],"sequence_number":${INT}${OBFUSCATION}\}`;
const RESPONSES_ARGS_TAIL = String.raw`,"sequence_number":${INT}${OBFUSCATION}\}`;
const CHAT_TAIL = String.raw`\},"logprobs":null,"finish_reason":null\}\](?:,"usage":null)?${OBFUSCATION}\}`;

const MESSAGES = new RegExp(
  String.raw`^\{"type":"content_block_delta","index":${INT},"delta":\{"type":"(?:text_delta","text"|thinking_delta","thinking"|input_json_delta","partial_json"):${STR}${MESSAGES_TAIL}$`,
);
const RESPONSES_TEXT = new RegExp(
  String.raw`^\{"type":"response\.output_text\.delta","item_id":${STR},"output_index":${INT},"content_index":${INT},"delta":${STR}${RESPONSES_TEXT_TAIL}$`,
);
const RESPONSES_ARGS = new RegExp(
  String.raw`^\{"type":"response\.function_call_arguments\.delta","item_id":${STR},"output_index":${INT},"delta":${STR}${RESPONSES_ARGS_TAIL}$`,
);
const CHAT = new RegExp(
  String.raw`^\{"id":${STR},"object":"chat\.completion\.chunk","created":${INT},"model":${STR}(?:,"service_tier":${STR})?(?:,"system_fingerprint":${STR})?,"choices":\[\{"index":0,"delta":\{"content":${STR}${CHAT_TAIL}$`,
);

/**
 * A hot delta event as the ParsedEvent the Events list and the folds get: the values a fold reads, its type,
 * and its payload parsed only if something asks for `json`. One object per event, its own `delta`: a
 * separate values object and wrapper were a tenth of what a 20k-event firehose allocates. What a class fixes
 * (family, kind) is read from its prototype, not stored per event.
 *
 * Each class stands alone and assigns every field in its constructor (`declare` fields emit no initialiser):
 * built through a base class with field declarations and a `super` chain, one event cost three times as much
 * (1.6 against 0.5 ms per 20k on Node 20), and a base with methods only was slower still.
 */
export class MessagesDelta {
  declare readonly type: string;
  declare private readonly data: string;
  declare private parsed: unknown;
  declare readonly index: number;
  declare readonly kind: 'text_delta' | 'thinking_delta' | 'input_json_delta';
  declare readonly value: string;
  constructor(data: string, index: number, kind: MessagesDelta['kind'], value: string) {
    this.type = 'content_block_delta';
    this.data = data;
    this.parsed = undefined;
    this.index = index;
    this.kind = kind;
    this.value = value;
  }
  get family(): 'messages' {
    return 'messages';
  }
  get json(): unknown {
    return (this.parsed ??= JSON.parse(this.data) as unknown);
  }
  get delta(): this {
    return this;
  }
}

export class ChatDelta {
  declare readonly type: string;
  declare private readonly data: string;
  declare private parsed: unknown;
  declare readonly content: string;
  constructor(type: string, data: string, content: string) {
    this.type = type;
    this.data = data;
    this.parsed = undefined;
    this.content = content;
  }
  get family(): 'chat' {
    return 'chat';
  }
  get json(): unknown {
    return (this.parsed ??= JSON.parse(this.data) as unknown);
  }
  get delta(): this {
    return this;
  }
}

/**
 * The two Responses deltas share their item, output index, value and sequence number. The item id is read
 * only when asked for: a fold finds the item by its output index, which the template requires, so slicing the
 * id out of every event was work for nothing.
 */
export class ResponsesTextDelta {
  declare readonly type: 'response.output_text.delta';
  declare private readonly data: string;
  declare private parsed: unknown;
  declare private readonly itemClose: number;
  declare readonly outputIndex: number;
  declare readonly contentIndex: number;
  declare readonly value: string;
  declare readonly seq: number;
  constructor(data: string, itemClose: number, outputIndex: number, contentIndex: number, value: string, seq: number) {
    this.type = 'response.output_text.delta';
    this.data = data;
    this.parsed = undefined;
    this.itemClose = itemClose;
    this.outputIndex = outputIndex;
    this.contentIndex = contentIndex;
    this.value = value;
    this.seq = seq;
  }
  get family(): 'responses' {
    return 'responses';
  }
  get kind(): 'response.output_text.delta' {
    return 'response.output_text.delta';
  }
  get itemId(): string {
    return valueOf(this.data, TEXT_ITEM, this.itemClose);
  }
  get json(): unknown {
    return (this.parsed ??= JSON.parse(this.data) as unknown);
  }
  get delta(): this {
    return this;
  }
}

export class ResponsesArgsDelta {
  declare readonly type: 'response.function_call_arguments.delta';
  declare private readonly data: string;
  declare private parsed: unknown;
  declare private readonly itemClose: number;
  declare readonly outputIndex: number;
  declare readonly value: string;
  declare readonly seq: number;
  constructor(data: string, itemClose: number, outputIndex: number, value: string, seq: number) {
    this.type = 'response.function_call_arguments.delta';
    this.data = data;
    this.parsed = undefined;
    this.itemClose = itemClose;
    this.outputIndex = outputIndex;
    this.value = value;
    this.seq = seq;
  }
  get family(): 'responses' {
    return 'responses';
  }
  get kind(): 'response.function_call_arguments.delta' {
    return 'response.function_call_arguments.delta';
  }
  get itemId(): string {
    return valueOf(this.data, ARGS_ITEM, this.itemClose);
  }
  get json(): unknown {
    return (this.parsed ??= JSON.parse(this.data) as unknown);
  }
  get delta(): this {
    return this;
  }
}

/** The values a fold reads from one hot delta event, by family. */
export type FastDelta = MessagesDelta | ChatDelta | ResponsesTextDelta | ResponsesArgsDelta;

/**
 * Where a string literal that starts at `open` (its opening quote) closes. The template match already proved
 * the literal well-formed, so its closing quote is the first quote not escaped by an odd run of backslashes.
 */
function closeOf(data: string, open: number): number {
  let q = data.indexOf('"', open + 1);
  for (;;) {
    let b = q - 1;
    while (data.charCodeAt(b) === 92 /* \ */) b--;
    if ((q - b) % 2 === 1) return q;
    q = data.indexOf('"', q + 1);
  }
}

/** The literal's value: without escapes it is its own contents; with them, JSON.parse decodes just the string. */
function valueOf(data: string, open: number, close: number): string {
  const esc = data.indexOf('\\', open);
  return esc === -1 || esc > close ? data.slice(open + 1, close) : (JSON.parse(data.slice(open, close + 1)) as string);
}

/**
 * A template's integer starting at `at`; `intEnd` is where its digits stop. The template allows 16 digits: up
 * to the last one every step is exact, so the one rounding is the last, the same as JSON.parse's.
 */
let intEnd = 0;
function intAt(data: string, at: number): number {
  let i = at;
  let n = 0;
  for (let c = data.charCodeAt(i); c >= 48 && c <= 57; c = data.charCodeAt(++i)) n = n * 10 + c - 48;
  intEnd = i;
  return n;
}

const MESSAGES_KINDS = ['text_delta', 'thinking_delta', 'input_json_delta'] as const;
const MESSAGES_INDEX = '{"type":"content_block_delta","index":'.length;
const MESSAGES_KIND = ',"delta":{"type":"'.length;
const MESSAGES_VALUE = [
  ',"delta":{"type":"text_delta","text":',
  ',"delta":{"type":"thinking_delta","thinking":',
  ',"delta":{"type":"input_json_delta","partial_json":',
].map((s) => s.length);
const TEXT_ITEM = '{"type":"response.output_text.delta","item_id":'.length;
const ARGS_ITEM = '{"type":"response.function_call_arguments.delta","item_id":'.length;
const OUTPUT_INDEX = ',"output_index":'.length;
const CONTENT_INDEX = ',"content_index":'.length;
const DELTA = ',"delta":'.length;
const TEXT_SEQ = ',"logprobs":[],"sequence_number":'.length;
const ARGS_SEQ = ',"sequence_number":'.length;
const CHAT_CONTENT = '{"content":';

/** Where the value literal of the last delta `fastDelta` read opens (its quote). */
let valueOpen = 0;

/**
 * The template regexes only validate (a match that builds no capture strings is several times cheaper per
 * event); the values are then read at the offsets the template fixes. `event` is the SSE `event:` line: a
 * Chat chunk's type is that line when it has one, else `content` (see sse.ts's `chatChunkType`).
 */
export function fastDelta(data: string, event?: string): FastDelta | undefined {
  const c2 = data.charCodeAt(2);
  // Dispatch on the first key before any regex runs: `{"t…` or `{"i…`.
  if (c2 === 116 /* t */) {
    const c9 = data.charCodeAt(9);
    if (c9 === 99 /* content_block_delta */) {
      if (!MESSAGES.test(data)) return undefined;
      const index = intAt(data, MESSAGES_INDEX);
      // text_delta, thinking_delta or input_json_delta, told apart by their first two letters.
      const at = intEnd + MESSAGES_KIND;
      const k = data.charCodeAt(at) === 105 /* i */ ? 2 : data.charCodeAt(at + 1) === 101 /* e */ ? 0 : 1;
      const open = intEnd + MESSAGES_VALUE[k];
      valueOpen = open;
      return new MessagesDelta(data, index, MESSAGES_KINDS[k], valueOf(data, open, data.length - 3));
    }
    if (c9 !== 114 /* response.* */) return undefined;
    if (RESPONSES_TEXT.test(data)) {
      const itemClose = closeOf(data, TEXT_ITEM);
      const outputIndex = intAt(data, itemClose + 1 + OUTPUT_INDEX);
      const contentIndex = intAt(data, intEnd + CONTENT_INDEX);
      const open = intEnd + DELTA;
      const close = closeOf(data, open);
      valueOpen = open;
      return new ResponsesTextDelta(
        data,
        itemClose,
        outputIndex,
        contentIndex,
        valueOf(data, open, close),
        intAt(data, close + 1 + TEXT_SEQ),
      );
    }
    if (RESPONSES_ARGS.test(data)) {
      const itemClose = closeOf(data, ARGS_ITEM);
      const outputIndex = intAt(data, itemClose + 1 + OUTPUT_INDEX);
      const open = intEnd + DELTA;
      const close = closeOf(data, open);
      valueOpen = open;
      return new ResponsesArgsDelta(
        data,
        itemClose,
        outputIndex,
        valueOf(data, open, close),
        intAt(data, close + 1 + ARGS_SEQ),
      );
    }
    return undefined;
  }
  if (c2 === 105 /* i */) {
    if (!CHAT.test(data)) return undefined;
    // A quote right after a brace cannot be inside a string literal, and the template has one object that
    // starts with "content": in a matched chunk this text occurs once, just before the content. (The longer
    // `,"choices":[{…` took V8's search twice as long per chunk.)
    const open = data.indexOf(CHAT_CONTENT) + CHAT_CONTENT.length;
    valueOpen = open;
    return new ChatDelta(event || 'content', data, valueOf(data, open, closeOf(data, open)));
  }
  return undefined;
}

/**
 * A reader for one stream. A stream's hot deltas repeat one layout with the same leading values: the same
 * item id and indexes (Responses), the same id, creation time and model (Chat), the same block index and kind
 * (Messages). After the general template has read one delta, the reader builds a template whose head is that
 * delta's text up to its value, literally, followed by the same value and tail patterns. It matches only what
 * the general template matches (its head is text the general head matched), and everything the head fixes is
 * known without reading it: the value's offset, the indexes, the kind. On the Responses and Chat firehoses that
 * test cost about a third of the general one.
 *
 * A template depends on its head alone, so templates are kept across streams (`LEARNED`): a gateway's Messages
 * deltas open alike in every stream, and a load run would otherwise build and compile the same regex for each of
 * its requests (docs/load.md). Chat and Responses heads carry a stream's own id, so they are learned per stream.
 */
export function createFastDeltaReader(): (data: string, event?: string) => FastDelta | undefined {
  let learnedHere = 0;
  let current: Learned | undefined;
  return (data, event) => {
    if (current !== undefined && current.test.test(data)) return current.read(data, event);
    const delta = fastDelta(data, event);
    if (delta === undefined) return undefined;
    const head = data.slice(0, valueOpen);
    let next = LEARNED.get(head);
    // Bounded: a stream that interleaves many items learns its first heads and reads the rest generally.
    if (next === undefined && learnedHere < MAX_LEARNED) {
      learnedHere++;
      next = learn(delta, head);
      if (LEARNED.size >= MAX_KEPT) LEARNED.delete(LEARNED.keys().next().value!);
      LEARNED.set(ownCopy(head), next);
    }
    current = next ?? current;
    return delta;
  };
}

const MAX_LEARNED = 32;
/** Templates kept across streams, oldest dropped first: a few heads per gateway and model for Messages. */
const MAX_KEPT = 256;
const LEARNED = new Map<string, Learned>();

/**
 * A head sliced from an event's data keeps that data, and the chunk text it was sliced from, alive: kept across
 * streams it must be a string of its own. Prefixing makes V8 copy it when slicing again.
 */
function ownCopy(text: string): string {
  return ` ${text}`.slice(1);
}

interface Learned {
  test: RegExp;
  read(data: string, event: string | undefined): FastDelta;
}

function learn(delta: FastDelta, head: string): Learned {
  const open = head.length;
  const template = (tail: string) => new RegExp(`^${head.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}${STR}${tail}$`);
  if (delta.family === 'messages') {
    const { index, kind } = delta;
    return {
      test: template(MESSAGES_TAIL),
      read: (data) => new MessagesDelta(data, index, kind, valueOf(data, open, data.length - 3)),
    };
  }
  if (delta.family === 'chat') {
    const read = (data: string, event: string | undefined) =>
      new ChatDelta(event || 'content', data, valueOf(data, open, closeOf(data, open)));
    return { test: template(CHAT_TAIL), read };
  }
  const { outputIndex } = delta;
  if (delta.kind === 'response.output_text.delta') {
    const { contentIndex } = delta;
    const itemClose = closeOf(head, TEXT_ITEM);
    return {
      test: template(RESPONSES_TEXT_TAIL),
      read: (data) => {
        const close = closeOf(data, open);
        return new ResponsesTextDelta(
          data,
          itemClose,
          outputIndex,
          contentIndex,
          valueOf(data, open, close),
          intAt(data, close + 1 + TEXT_SEQ),
        );
      },
    };
  }
  const itemClose = closeOf(head, ARGS_ITEM);
  return {
    test: template(RESPONSES_ARGS_TAIL),
    read: (data) => {
      const close = closeOf(data, open);
      return new ResponsesArgsDelta(
        data,
        itemClose,
        outputIndex,
        valueOf(data, open, close),
        intAt(data, close + 1 + ARGS_SEQ),
      );
    },
  };
}
