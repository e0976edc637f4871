import { describe, expect, it } from 'vitest';
import { createFold, createSseReader, parseEvent } from './index';
import { fixtureProtocol, fixtures } from './fixtures/harness';
import { PIECES_PER_JOIN } from './fold-kit';
import type { ParsedEvent, ProtocolId, SseMessage } from './types';

/** The same event as the ordinary path gives it: JSON.parse'd, no fast values. */
function slowParse(message: SseMessage): ParsedEvent {
  const parsed = parseEvent(message);
  return parsed.delta === undefined ? parsed : { type: parsed.type, json: JSON.parse(message.data) };
}

function messagesOf(text: string): SseMessage[] {
  const out: SseMessage[] = [];
  const reader = createSseReader({ onMessage: (m) => out.push(m) });
  reader.feed(text);
  reader.end();
  return out;
}

/** Folds the events both ways; both must agree step by step, in the transcript, warnings and verdict. */
function foldBothWays(protocol: ProtocolId, messages: SseMessage[]) {
  const fast = createFold(protocol);
  const slow = createFold(protocol);
  let hits = 0;
  for (const m of messages) {
    const parsed = parseEvent(m);
    if (parsed.delta) hits++;
    expect(fast.push(m, parsed)).toEqual(slow.push(m, slowParse(m)));
  }
  expect(fast.transcript()).toEqual(slow.transcript());
  expect(fast.warnings()).toEqual(slow.warnings());
  expect(fast.end()).toEqual(slow.end());
  return hits;
}

const sse = (frames: [string | undefined, object | string][]) =>
  frames
    .map(
      ([event, data]) =>
        `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    )
    .join('');

const text = (index: number, t: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'text_delta', text: t },
});
const thinking = (index: number, t: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'thinking_delta', thinking: t },
});
const json = (index: number, t: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json: t },
});
const chunk = (content: string, id = 'c1', model = 'm') => ({
  id,
  object: 'chat.completion.chunk',
  created: 1,
  model,
  choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
});
const outText = (seq: number, delta: string, output_index = 0, content_index = 0) => ({
  type: 'response.output_text.delta',
  item_id: 'msg_1',
  output_index,
  content_index,
  delta,
  logprobs: [],
  sequence_number: seq,
});
const args = (seq: number, delta: string, output_index = 1) => ({
  type: 'response.function_call_arguments.delta',
  item_id: 'fc_1',
  output_index,
  delta,
  sequence_number: seq,
});

describe('the fast path for hot deltas folds exactly as the JSON path', () => {
  it('on every recorded fixture', () => {
    let hits = 0;
    for (const [name, body] of Object.entries(fixtures) as [keyof typeof fixtures, string][])
      hits += foldBothWays(fixtureProtocol[name], messagesOf(body));
    expect(hits).toBeGreaterThan(20);
  });

  it('on Messages deltas out of place: before message_start, unknown index, wrong block kind, seeded tool input, after the end, event lines', () => {
    const start = {
      type: 'message_start',
      message: { id: 'msg', model: 'm', usage: { input_tokens: 3, output_tokens: 1 } },
    };
    const cases: [string | undefined, object | string][][] = [
      [
        [undefined, text(0, 'early')],
        ['message_start', start],
      ],
      [
        ['message_start', start],
        ['content_block_delta', text(4, 'nowhere')],
      ],
      [
        ['message_start', start],
        [undefined, { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }],
        [undefined, text(0, 'x')],
        [undefined, thinking(0, 'hm')],
        [undefined, json(0, '{')],
      ],
      [
        ['message_start', start],
        [undefined, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        [undefined, thinking(0, 'no')],
        [undefined, json(0, 'no')],
        [undefined, text(0, '')],
        [undefined, text(0, 'ok')],
      ],
      [
        ['message_start', start],
        [
          undefined,
          {
            type: 'content_block_start',
            index: 1,
            content_block: { type: 'tool_use', id: 't', name: 'f', input: { seeded: true } },
          },
        ],
        [undefined, json(1, '')],
        [undefined, json(1, '{"a":')],
        [undefined, json(1, '1}')],
        [undefined, { type: 'content_block_stop', index: 1 }],
      ],
      [
        ['message_start', start],
        [
          undefined,
          { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 's', name: 'web' } },
        ],
        [undefined, json(0, '{"q":1}')],
        [undefined, { type: 'content_block_stop', index: 0 }],
      ],
      [
        ['message_start', start],
        [undefined, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['error', text(0, 'an error line')],
        [undefined, text(0, 'after')],
      ],
      [
        ['message_start', start],
        [undefined, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['other', text(0, 'odd line')],
        [undefined, { type: 'message_stop' }],
        [undefined, text(0, 'late')],
      ],
    ];
    let hits = 0;
    for (const frames of cases) hits += foldBothWays('messages', messagesOf(sse(frames)));
    expect(hits).toBeGreaterThanOrEqual(15);
  });

  it('on Chat chunks: id and model from the first chunk, empty content, event lines, after [DONE] and after an error', () => {
    const cases: [string | undefined, object | string][][] = [
      [
        [undefined, chunk('a', 'first', 'm1')],
        [undefined, chunk('', 'second', 'm2')],
        [undefined, chunk('b')],
        [undefined, '[DONE]'],
        [undefined, chunk('late')],
      ],
      [
        ['delta', chunk('named')],
        ['error', chunk('an error line')],
        [undefined, chunk('after')],
      ],
      [
        [undefined, { error: { type: 'server_error', message: 'boom' } }],
        [undefined, chunk('after the error')],
      ],
      [
        [
          undefined,
          {
            id: 'c',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'm',
            choices: [{ index: 0, delta: { reasoning_content: 'think' }, finish_reason: null }],
          },
        ],
        [undefined, chunk('then text')],
      ],
    ];
    let hits = 0;
    for (const frames of cases) hits += foldBothWays('chat', messagesOf(sse(frames)));
    expect(hits).toBeGreaterThanOrEqual(6);
  });

  it('on Responses deltas: before response.created, sequence gaps, unknown items, arguments before their item, after the end, event lines', () => {
    const created = {
      type: 'response.created',
      response: { id: 'resp', model: 'm', status: 'in_progress' },
      sequence_number: 0,
    };
    const done = {
      type: 'response.completed',
      response: { id: 'resp', model: 'm', status: 'completed', usage: { input_tokens: 1, output_tokens: 2 } },
      sequence_number: 9,
    };
    const cases: [string | undefined, object | string][][] = [
      [
        [undefined, outText(1, 'early')],
        [undefined, created],
      ],
      [
        [undefined, created],
        [undefined, outText(1, 'a')],
        [undefined, outText(5, 'gap')],
        [undefined, outText(6, 'b', 3, 2)],
        [undefined, outText(7, '')],
      ],
      [
        [undefined, created],
        [undefined, args(1, '{"x":')],
        [undefined, args(2, '1}')],
        [
          undefined,
          {
            type: 'response.function_call_arguments.done',
            item_id: 'fc_1',
            output_index: 1,
            arguments: '{"x":1}',
            sequence_number: 3,
          },
        ],
      ],
      [
        [undefined, created],
        [
          undefined,
          {
            type: 'response.output_item.added',
            output_index: 0,
            item: { type: 'reasoning', id: 'r' },
            sequence_number: 1,
          },
        ],
        [undefined, outText(2, 'into reasoning')],
      ],
      [
        [undefined, created],
        ['error', outText(1, 'an error line')],
        [undefined, outText(2, 'after')],
      ],
      [
        [undefined, created],
        ['response.output_text.delta', outText(1, 'named')],
        [undefined, done],
        [undefined, outText(10, 'late')],
      ],
      // Text, then arguments at the same output index (the tool call takes the item's first part), then text again.
      [
        [undefined, created],
        [undefined, outText(1, 'one ')],
        [undefined, outText(2, 'two ')],
        [undefined, args(3, '{}', 0)],
        [undefined, outText(4, 'three ')],
        [undefined, outText(5, 'four')],
      ],
      // Text, then an event that announces a new item, or puts a refusal, where that text was; then text again.
      [
        [undefined, created],
        [undefined, outText(1, 'old ')],
        [
          undefined,
          {
            type: 'response.output_item.added',
            output_index: 0,
            item: { type: 'message', id: 'msg_2', role: 'assistant', content: [] },
            sequence_number: 2,
          },
        ],
        [undefined, outText(3, 'new')],
      ],
      [
        [undefined, created],
        [undefined, outText(1, 'old ')],
        [
          undefined,
          {
            type: 'response.content_part.added',
            item_id: 'msg_1',
            output_index: 0,
            content_index: 0,
            part: { type: 'refusal', refusal: 'no' },
            sequence_number: 2,
          },
        ],
        [undefined, outText(3, 'new')],
      ],
      // Text into two parts of one item in turn, and two items in turn.
      [
        [undefined, created],
        [undefined, outText(1, 'a', 0, 0)],
        [undefined, outText(2, 'b', 0, 1)],
        [undefined, outText(3, 'c', 0, 0)],
        [undefined, outText(4, 'd', 2, 0)],
        [undefined, outText(5, 'e', 0, 1)],
      ],
    ];
    let hits = 0;
    for (const frames of cases) hits += foldBothWays('responses', messagesOf(sse(frames)));
    expect(hits).toBeGreaterThanOrEqual(26);
  });

  it('leaves another family’s delta to the JSON path', () => {
    for (const [protocol, frames] of [
      ['chat', [[undefined, text(0, 'a Messages delta on Chat')]]],
      ['messages', [[undefined, chunk('a Chat chunk on Messages')]]],
      ['chat', [[undefined, outText(1, 'a Responses delta on Chat')]]],
    ] as [ProtocolId, [string | undefined, object][]][]) {
      expect(foldBothWays(protocol, messagesOf(sse(frames)))).toBe(1);
    }
  });

  it('still gives the payload to anyone who asks for it', () => {
    const data = JSON.stringify(text(2, 'hi'));
    const parsed = parseEvent({ data });
    expect(parsed.delta).toMatchObject({ family: 'messages', index: 2, kind: 'text_delta', value: 'hi' });
    expect(parsed.type).toBe('content_block_delta');
    expect(parsed.json).toEqual(JSON.parse(data));
  });
});

describe('long streams: text joined in batches comes out whole, whenever it is read', () => {
  const many = (n: number, word: (i: number) => string) => Array.from({ length: n }, (_, i) => word(i));
  // More pieces than one batch holds, twice over, and a count that does not divide evenly.
  const N = PIECES_PER_JOIN * 2 + 37;

  it('on Messages: a transcript read mid-stream, a tool call completed with pieces still waiting, then more text', () => {
    const words = many(N, (i) => `w${i} `);
    const argParts = ['{"a":"', ...many(N, () => 'x'), '"}'];
    const start = {
      type: 'message_start',
      message: { id: 'msg', model: 'm', usage: { input_tokens: 3, output_tokens: 1 } },
    };
    const head: [string | undefined, object][] = [
      ['message_start', start],
      [undefined, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ...words.slice(0, 300).map((w): [undefined, object] => [undefined, text(0, w)]),
    ];
    const tail: [string | undefined, object][] = [
      [
        undefined,
        { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'f', input: {} } },
      ],
      ...argParts.map((p): [undefined, object] => [undefined, json(1, p)]),
      [undefined, { type: 'content_block_stop', index: 1 }],
      ...words.slice(300).map((w): [undefined, object] => [undefined, text(0, w)]),
      [undefined, { type: 'content_block_stop', index: 0 }],
      [undefined, { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: N } }],
      [undefined, { type: 'message_stop' }],
    ];
    const fold = createFold('messages');
    for (const m of messagesOf(sse(head))) fold.push(m);
    expect(fold.transcript().blocks).toEqual([{ kind: 'text', text: words.slice(0, 300).join('') }]);
    for (const m of messagesOf(sse(tail))) fold.push(m);
    expect(fold.transcript().blocks).toEqual([
      { kind: 'text', text: words.join('') },
      {
        kind: 'tool_call',
        id: 't',
        name: 'f',
        argsText: argParts.join(''),
        args: { a: 'x'.repeat(N) },
        complete: true,
      },
    ]);
    expect(fold.end().verdict).toBe('complete');
    expect(foldBothWays('messages', messagesOf(sse([...head, ...tail])))).toBe(N + argParts.length);
  });

  it('on Chat: every chunk of a long answer, read mid-stream and at the end', () => {
    const words = many(N, (i) => `c${i} `);
    const fold = createFold('chat');
    const messages = messagesOf(
      sse([
        ...words.map((w): [undefined, object] => [undefined, chunk(w)]),
        [undefined, { ...chunk(''), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
        [undefined, '[DONE]'],
      ]),
    );
    messages.slice(0, 301).forEach((m) => fold.push(m));
    expect(fold.transcript().blocks).toEqual([{ kind: 'text', text: words.slice(0, 301).join('') }]);
    messages.slice(301).forEach((m) => fold.push(m));
    expect(fold.transcript().blocks).toEqual([{ kind: 'text', text: words.join('') }]);
    expect(fold.end().verdict).toBe('complete');
  });

  it('on Responses: the done events that restate text and arguments replace what the deltas built, never add to it', () => {
    const words = many(N, (i) => `r${i} `);
    const argParts = ['{"q":"', ...many(N, () => 'y'), '"}'];
    let seq = 0;
    const frames: [string | undefined, object][] = [
      [
        undefined,
        {
          type: 'response.created',
          response: { id: 'resp', model: 'm', status: 'in_progress' },
          sequence_number: seq++,
        },
      ],
      [
        undefined,
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] },
          sequence_number: seq++,
        },
      ],
      [
        undefined,
        {
          type: 'response.content_part.added',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          part: { type: 'output_text', text: '' },
          sequence_number: seq++,
        },
      ],
      ...words.map((w): [undefined, object] => [undefined, outText(seq++, w)]),
      [
        undefined,
        {
          type: 'response.output_text.done',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          text: words.join(''),
          sequence_number: seq++,
        },
      ],
      [
        undefined,
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'find', arguments: '' },
          sequence_number: seq++,
        },
      ],
      ...argParts.map((p): [undefined, object] => [undefined, args(seq++, p)]),
      [
        undefined,
        {
          type: 'response.function_call_arguments.done',
          item_id: 'fc_1',
          output_index: 1,
          arguments: argParts.join(''),
          sequence_number: seq++,
        },
      ],
    ];
    const fold = createFold('responses');
    for (const m of messagesOf(sse(frames))) fold.push(m);
    const blocks = fold.transcript().blocks;
    expect(blocks[0]).toMatchObject({ kind: 'text', text: words.join('') });
    expect(blocks[1]).toMatchObject({
      kind: 'tool_call',
      argsText: argParts.join(''),
      args: { q: 'y'.repeat(N) },
      complete: true,
    });
    expect(fold.warnings()).toEqual([]);
  });
});
