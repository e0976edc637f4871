import { StringDecoder } from 'node:string_decoder';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEventParser, createSseReader, eventTypeOf, parseEvent, type StreamTextDecoder } from './sse';
import { chunksOf, fixtures } from './fixtures/harness';
import type { SseMessage } from './types';

let makeDecoder: (() => StreamTextDecoder) | undefined;

function read(input: string | (Uint8Array | string)[], end = true) {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const reader = createSseReader(
    { onMessage: (m) => messages.push(m), onComment: (c) => comments.push(c) },
    makeDecoder?.(),
  );
  if (typeof input === 'string') reader.feed(input);
  else for (const c of input) reader.feed(c);
  if (end) reader.end();
  return { messages, comments };
}

// The default (TextDecoder, which the browser has) and the core's faster Node StringDecoder must read alike.
describe.each([
  ['TextDecoder', undefined],
  ['StringDecoder', () => new StringDecoder('utf8')],
] as const)('createSseReader with %s', (_name, decoder) => {
  beforeEach(() => {
    makeDecoder = decoder;
  });
  it('reads named events and data-only frames', () => {
    const { messages } = read('event: ping\ndata: {"type":"ping"}\n\ndata: {"a":1}\n\n');
    expect(messages).toEqual([{ event: 'ping', data: '{"type":"ping"}' }, { data: '{"a":1}' }]);
  });

  it('joins multiple data lines with \\n; id and retry neither name the event nor reach its data', () => {
    const { messages } = read('id: 7\nretry: 1000\ndata: first\ndata:second\n\n');
    expect(messages.map(({ event, data }) => ({ event, data }))).toEqual([{ event: undefined, data: 'first\nsecond' }]);
  });

  it('reports comments (gateway keep-alives) separately', () => {
    const { messages, comments } = read(': keep-alive\n\n:ping\ndata: x\n\n');
    expect(comments).toEqual(['keep-alive', 'ping']);
    expect(messages).toEqual([{ data: 'x' }]);
  });

  it('accepts \\r\\n and \\r line endings, even when a \\r\\n pair is split across chunks', () => {
    const body = 'event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r';
    const expected = [
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
    ];
    expect(read(body).messages).toEqual(expected);
    expect(read(chunksOf(body, 'bytes')).messages).toEqual(expected);
    // As they arrive, not held until the body ends: a stream may never send a \n at all.
    expect(read(['data: 1\r\rdata: 2\r', '\rdata: 3'], false).messages.map((m) => m.data)).toEqual(['1', '2']);
    expect(
      read(['data: 1\r\rdata: 2\r', '\r', 'data: 3\r\n', '\r\ndata: 4\n', '\n'], false).messages.map((m) => m.data),
    ).toEqual(['1', '2', '3', '4']);
  });

  it('dispatches every event as soon as its blank line arrives, however the lines are split', () => {
    const events = Array.from({ length: 40 }, (_, i) => `data: {"n":${i},"pad":"${'x'.repeat(i * 7)}"}\n\n`);
    const body = events.join('');
    for (const size of [1, 5, 64, 1000]) {
      const seen: string[] = [];
      const reader = createSseReader({ onMessage: (m) => seen.push(m.data) }, makeDecoder?.());
      let sent = '';
      for (let at = 0; at < body.length; at += size) {
        const piece = body.slice(at, at + size);
        reader.feed(piece);
        sent += piece;
        // Every event whose blank line has been sent is out, and no other.
        expect(seen.length, `chunks of ${size}`).toBe(sent.split('\n\n').length - 1);
      }
      expect(seen).toEqual(events.map((e) => e.slice(6, -2)));
    }
  });

  it('keeps multi-byte characters intact when split mid-character', () => {
    const body = 'data: {"t":"日本語 🚀 café"}\n\n';
    const bytes = chunksOf(body, 'bytes');
    expect(bytes.length).toBeGreaterThan(body.length);
    const { messages } = read(bytes);
    expect(messages).toEqual([{ data: '{"t":"日本語 🚀 café"}' }]);
    expect(messages[0].data).not.toContain('\uFFFD');
  });

  it('decodes every field: data, event names and comments, cut anywhere', () => {
    const body = ': ping ☕\n\nevent: délta\ndata: {"t":"naïve"}\ndata: ok\n\ndata: plain\n\n';
    for (const chunking of ['whole', 'bytes', { random: 4 }] as const) {
      const { messages, comments } = read(chunksOf(body, chunking));
      expect(comments).toEqual(['ping ☕']);
      expect(messages).toEqual([{ event: 'délta', data: '{"t":"naïve"}\nok' }, { data: 'plain' }]);
    }
  });

  it('gives the same messages for every chunking of every fixture', () => {
    for (const [name, text] of Object.entries(fixtures)) {
      const whole = read(chunksOf(text, 'whole')).messages;
      expect(whole.length, name).toBeGreaterThan(2);
      expect(read(chunksOf(text, 'bytes')).messages, name).toEqual(whole);
      for (const seed of [1, 2, 3]) expect(read(chunksOf(text, { random: seed })).messages, name).toEqual(whole);
    }
  });

  it('dispatches a last event that lacks its blank line at end()', () => {
    expect(read('data: {"type":"message_stop"}\n', false).messages).toEqual([]);
    expect(read('data: {"type":"message_stop"}\n').messages).toEqual([{ data: '{"type":"message_stop"}' }]);
    expect(read('data: [DONE]').messages).toEqual([{ data: '[DONE]' }]);
  });

  it('strips a UTF-8 byte-order mark, even split across chunks, and accepts plain strings', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const rest = new TextEncoder().encode('event: a\ndata: x\n\n');
    expect(read([bom, rest]).messages).toEqual([{ event: 'a', data: 'x' }]);
    expect(read([bom.subarray(0, 1), bom.subarray(1), rest]).messages).toEqual([{ event: 'a', data: 'x' }]);
    expect(read('data: y\n\n').messages).toEqual([{ data: 'y' }]);
  });

  // A BOM left in would glue itself to the first field name ("\uFEFFevent"), and that line would be dropped as
  // an unknown field: a named first event loses its name, a data-first one is lost outright.
  it.each([
    ['named', 'event: ping\ndata: {"n":1}\n\n', { event: 'ping', data: '{"n":1}' }, 'ping'],
    ['data-only', 'data: {"type":"message_start"}\n\n', { data: '{"type":"message_start"}' }, 'message_start'],
  ])('strips a BOM however the first chunks split it, before a %s first event', (_kind, body, first, type) => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(body)]);
    const at = (...cuts: number[]) => [0, ...cuts].map((c, i, all) => bytes.subarray(c, all[i + 1] ?? bytes.length));
    const splits: Record<string, Uint8Array[]> = {
      'EF | BB BF …': at(1),
      'EF BB | BF …': at(2),
      'EF BB BF | …': at(3),
      'EF | BB | BF | …': at(1, 2, 3),
      'EF | BB BF | …': at(1, 3),
      'EF BB | BF | …': at(2, 3),
      'empty | EF BB BF …': [new Uint8Array(0), bytes],
      'empty | EF | BB BF …': [new Uint8Array(0), ...at(1)],
      'one byte at a time': [...bytes].map((b) => Uint8Array.of(b)),
    };
    for (let cut = 4; cut < bytes.length; cut++) splits[`EF BB BF + ${cut - 3} | …`] = at(cut);
    for (const [name, chunks] of Object.entries(splits)) {
      const { messages } = read(chunks);
      expect(messages[0], name).toEqual(first);
      expect(eventTypeOf(messages[0]), name).toBe(type);
      expect(messages, name).toHaveLength(1);
    }
    expect(read(['', `\uFEFF${body}`]).messages[0]).toEqual(first);
  });

  it('turns invalid UTF-8 into U+FFFD instead of failing, and flushes a dangling partial character at end()', () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('data: a'),
      0xff,
      ...new TextEncoder().encode('b\n\ndata: c'),
      0xe6,
      0x97,
    ]);
    expect(read([bytes]).messages).toEqual([{ data: 'a\uFFFDb' }, { data: 'c\uFFFD' }]);
  });

  it('ignores input after end()', () => {
    const messages: SseMessage[] = [];
    const reader = createSseReader({ onMessage: (m) => messages.push(m) }, makeDecoder?.());
    reader.feed('data: 1\n\n');
    reader.end();
    reader.feed('data: 2\n\n');
    reader.end();
    expect(messages).toEqual([{ data: '1' }]);
  });
});

const CHAT_DELTA =
  '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"logprobs":null,"finish_reason":null}]}';

describe('eventTypeOf / parseEvent', () => {
  it.each([
    [{ event: 'message_start', data: '{"type":"message_start","message":{}}' }, 'message_start'],
    [{ data: '{"type":"response.output_text.delta","delta":"x"}' }, 'response.output_text.delta'],
    [{ data: '[DONE]' }, '[DONE]'],
    [{ data: ' [DONE] ' }, '[DONE]'],
    [{ event: 'custom', data: '{"a":1}' }, 'custom'],
    [{ data: '{"id":"c","object":"chat.completion.chunk","choices":[]}' }, 'chunk'],
    // A hot Chat delta (the fast path) and any other chunk are typed alike: by the event line when there is one.
    [{ data: CHAT_DELTA }, 'content'],
    [{ event: 'completion', data: CHAT_DELTA }, 'completion'],
    [{ event: 'completion', data: '{"id":"c","object":"chat.completion.chunk","choices":[]}' }, 'completion'],
    [{ data: '{"error":{"message":"boom"}}' }, 'error'],
    [{ data: '{"id":"c","object":"chat.completion.chunk","choices":[],"error":{"message":"x"}}' }, 'error'],
    [{ event: 'error', data: '{"error":{"message":"boom"}}' }, 'error'],
    [{ data: '{"type":"message_start"' }, 'malformed'],
    [{ event: 'content_block_delta', data: '{"type":' }, 'content_block_delta'],
    [{ event: 'error', data: 'Internal Server Error' }, 'error'],
    [{ data: '{"unrelated":true}' }, 'malformed'],
    [{ data: '' }, 'malformed'],
  ])('%j → %s', (message, type) => {
    expect(eventTypeOf(message)).toBe(type);
  });

  it('types each Chat chunk by the rarest part it carries, so the type filter picks out the parts of a stream', () => {
    const head = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm' };
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      eventTypeOf({ data: JSON.stringify({ ...head, choices, ...extra }) });
    const delta = (d: Record<string, unknown>, finish: string | null = null) => [
      { index: 0, delta: d, logprobs: null, finish_reason: finish },
    ];
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    const call = { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } };
    // The first chunk of an answer, of a tool call, then text, arguments, reasoning and a refusal.
    expect(chunk(delta({ role: 'assistant', content: '', refusal: null }))).toBe('role');
    expect(chunk(delta({ role: 'assistant', content: null, tool_calls: [call] }))).toBe('tool_calls');
    expect(chunk(delta({ content: 'Hi' }))).toBe('content');
    expect(chunk(delta({ content: 'Hi' }), { service_tier: 'default', usage: null, obfuscation: 'x' })).toBe('content');
    expect(chunk(delta({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }))).toBe('tool_calls');
    expect(chunk(delta({ function_call: { arguments: '{}' } }))).toBe('tool_calls');
    expect(chunk(delta({ reasoning_content: 'Let me think' }))).toBe('content');
    expect(chunk(delta({ refusal: 'No.' }))).toBe('content');
    // The end: a finish_reason (alone, or with the last text), and the usage chunk (alone, or with the finish).
    expect(chunk(delta({}, 'stop'))).toBe('finish');
    expect(chunk(delta({ content: 'bye' }, 'stop'))).toBe('finish');
    expect(chunk([], { usage })).toBe('usage');
    expect(chunk(delta({}, 'stop'), { usage })).toBe('usage');
    // Nothing of the five: an empty delta, an Azure-style filter chunk with no choices.
    expect(chunk(delta({}))).toBe('chunk');
    expect(chunk([], { prompt_filter_results: [] })).toBe('chunk');
    // n > 1: any choice counts.
    expect(
      chunk([
        { index: 0, delta: { content: 'a' } },
        { index: 1, delta: { role: 'assistant' } },
      ]),
    ).toBe('role');
    // A chunk without `object` (some relays) is typed the same way.
    expect(eventTypeOf({ data: '{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}' })).toBe('finish');
  });

  it('returns the parsed JSON so the fold does not parse again', () => {
    const parsed = parseEvent({ data: '{"type":"ping"}' });
    expect(parsed).toEqual({ type: 'ping', json: { type: 'ping' } });
    expect(parseEvent({ data: '[DONE]' })).toEqual({ type: '[DONE]', done: true });
    expect(parseEvent({ data: 'nope' })).toEqual({ type: 'malformed', malformed: true });
    expect(parseEvent({ event: 'x', data: 'nope' })).toEqual({ type: 'x', malformed: true });
  });

  it('a parser for one stream gives every event of every fixture the type, payload and values parseEvent gives', () => {
    for (const [name, text] of Object.entries(fixtures)) {
      const parse = createEventParser();
      const messages = read(chunksOf(text, 'whole')).messages;
      // Twice over: the second pass meets heads the parser has already learned.
      for (const message of [...messages, ...messages]) {
        const ours = parse(message);
        const plain = parseEvent(message);
        expect({ type: ours.type, json: ours.json, done: ours.done, malformed: ours.malformed }, name).toEqual({
          type: plain.type,
          json: plain.json,
          done: plain.done,
          malformed: plain.malformed,
        });
        expect(ours.delta && { ...ours.delta }, name).toEqual(plain.delta && { ...plain.delta });
      }
    }
  });
});
