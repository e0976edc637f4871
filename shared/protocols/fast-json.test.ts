import { describe, expect, it } from 'vitest';
import { createFastDeltaReader, fastDelta, type FastDelta } from './fast-json';

/** JSON.parse's answer, read without a schema as the tests here do (see eslint.config.mjs). */
type Parsed = ReturnType<typeof JSON.parse>;

/** What a fold reads from each hot shape, taken from JSON.parse's answer: the fast path must agree. */
function fromJson(json: Parsed): Record<string, unknown> {
  if (json.type === 'content_block_delta') {
    const kind = json.delta.type;
    return {
      family: 'messages',
      index: json.index,
      kind,
      value:
        kind === 'text_delta'
          ? json.delta.text
          : kind === 'thinking_delta'
            ? json.delta.thinking
            : json.delta.partial_json,
    };
  }
  if (json.type === 'response.output_text.delta') {
    return {
      family: 'responses',
      kind: json.type,
      itemId: json.item_id,
      outputIndex: json.output_index,
      contentIndex: json.content_index,
      value: json.delta,
      seq: json.sequence_number,
    };
  }
  if (json.type === 'response.function_call_arguments.delta') {
    return {
      family: 'responses',
      kind: json.type,
      itemId: json.item_id,
      outputIndex: json.output_index,
      value: json.delta,
      seq: json.sequence_number,
    };
  }
  return { family: 'chat', content: json.choices[0].delta.content };
}

const same = (data: string) => {
  const fast = fastDelta(data);
  expect(fast).not.toBeUndefined();
  const json = JSON.parse(data);
  expect(fast).toMatchObject(fromJson(json));
  // The same event is the ParsedEvent the Events list shows: its type, and the whole payload on request.
  expect(fast?.type).toBe(json.type ?? 'content');
  expect(fast?.json).toEqual(json);
};

describe('fast path for hot delta events', () => {
  it('reads exactly the values JSON.parse gives for each protocol’s delta shape, escapes and all', () => {
    for (const text of [
      'Hello',
      '',
      'a "quoted" \\ back\\slash',
      'tab\tnew\nline',
      'é — 日本 🚀',
      '\u0001',
      'ends in \\',
      '\\"',
      '"',
      '\\\\',
    ]) {
      same(JSON.stringify({ type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text } }));
      same(
        JSON.stringify({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: text },
        }),
      );
      same(
        JSON.stringify({
          type: 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 1,
          content_index: 0,
          delta: text,
          logprobs: [],
          sequence_number: 42,
        }),
      );
      same(
        JSON.stringify({
          type: 'response.function_call_arguments.delta',
          item_id: 'fc_1',
          output_index: 2,
          delta: text,
          sequence_number: 7,
        }),
      );
      same(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          system_fingerprint: 'fp',
          choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
        }),
      );
      same(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
          usage: null,
        }),
      );
      same(
        JSON.stringify({ type: 'content_block_delta', index: 1, delta: { type: 'thinking_delta', thinking: text } }),
      );
      same(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          service_tier: 'default',
          system_fingerprint: 'fp',
          choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
          obfuscation: 'a1b2',
        }),
      );
      same(
        JSON.stringify({
          type: 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: text,
          logprobs: [],
          sequence_number: 4,
          obfuscation: 'zz',
        }),
      );
      same(
        JSON.stringify({
          type: 'response.function_call_arguments.delta',
          item_id: 'fc_1',
          output_index: 2,
          delta: text,
          sequence_number: 7,
          obfuscation: 'q',
        }),
      );
    }
    expect(
      fastDelta('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u00e9"}}'),
    ).toMatchObject({ family: 'messages', index: 0, kind: 'text_delta', value: 'é' });
  });

  it('finds each value after strings that quote the template’s own keys, and reads long indexes as JSON.parse does', () => {
    // Values are read at offsets after the template matched: a literal holding `","output_index":` or the
    // Chat content key, escaped as JSON escapes it, must not be taken for the real key.
    for (const tricky of [
      'a","output_index":9,"content_index":9,"delta":"no',
      '\\',
      'q\\"',
      ',"choices":[{"index":0,"delta":{"content":"no"}}]',
      '"}}',
    ]) {
      same(
        JSON.stringify({
          type: 'response.output_text.delta',
          item_id: tricky,
          output_index: 12,
          content_index: 3,
          delta: tricky,
          logprobs: [],
          sequence_number: 9,
        }),
      );
      same(
        JSON.stringify({
          type: 'response.function_call_arguments.delta',
          item_id: tricky,
          output_index: 0,
          delta: tricky,
          sequence_number: 1,
        }),
      );
      same(
        JSON.stringify({
          id: tricky,
          object: 'chat.completion.chunk',
          created: 1,
          model: tricky,
          service_tier: tricky,
          system_fingerprint: tricky,
          choices: [{ index: 0, delta: { content: tricky }, logprobs: null, finish_reason: null }],
        }),
      );
    }
    for (const index of ['0', '7', '4096', '123456789012345', '9007199254740993', '9999999999999999']) {
      const data = `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":"x"}}`;
      expect((fastDelta(data) as { index: number }).index).toBe(JSON.parse(data).index);
    }
    const seq =
      '{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"x","logprobs":[],"sequence_number":8888888888888889}';
    expect((fastDelta(seq) as { seq: number }).seq).toBe(JSON.parse(seq).sequence_number);
  });

  it('leaves everything else to JSON.parse: other layouts, padding, extra keys, and anything JSON.parse would reject', () => {
    for (const data of [
      '{"type":"content_block_delta", "index":0,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}       ',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","partial_json":"x"}}',
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"bad \\x escape"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw \u0001 control"}}',
      '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":"stop"}]}',
      '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp","service_tier":"default","choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":null}]}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","text":"x"}}',
      '{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"x","logprobs":[],"sequence_number":1,"obfuscation":1}',
      '{"type":"message_stop"}',
      '[DONE]',
    ]) {
      expect(fastDelta(data)).toBeUndefined();
    }
  });

  it('rejects a near-miss with long strings at once, so a relay’s odd chunk cannot stall the stream', () => {
    // 26 characters: the ambiguous pattern this replaced needed about 1 s per string here, 4× more per 2 more characters.
    const long = 'x'.repeat(26);
    const started = Date.now();
    for (const data of [
      JSON.stringify({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { content: long }, logprobs: null, finish_reason: 'stop' }],
      }),
      JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: long }, extra: 1 }),
      JSON.stringify({
        type: 'response.output_text.delta',
        item_id: 'm',
        output_index: 0,
        content_index: 0,
        delta: long,
        logprobs: [],
        sequence_number: 1,
        extra: true,
      }),
    ]) {
      expect(fastDelta(data)).toBeUndefined();
    }
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('a reader that learns a stream’s templates reads every event exactly as the general templates do', () => {
    /** Everything a fold or the Events list can read from a delta, getters included. */
    const view = (d: FastDelta | undefined) =>
      d && {
        ...fromJson(d.json),
        type: d.type,
        ...Object.fromEntries(
          ['index', 'kind', 'value', 'itemId', 'outputIndex', 'contentIndex', 'seq', 'content'].map((k) => [
            k,
            (d as unknown as Record<string, unknown>)[k],
          ]),
        ),
      };
    const messages = (text: string, index = 0, kind = 'text_delta', key = 'text') =>
      JSON.stringify({ type: 'content_block_delta', index, delta: { type: kind, [key]: text } });
    const text = (
      delta: string,
      item = 'msg_1',
      output = 0,
      content = 0,
      seq = 1,
      extra: Record<string, unknown> = {},
    ) =>
      JSON.stringify({
        type: 'response.output_text.delta',
        item_id: item,
        output_index: output,
        content_index: content,
        delta,
        logprobs: [],
        sequence_number: seq,
        ...extra,
      });
    const args = (delta: string, item = 'fc_1', output = 1, seq = 1) =>
      JSON.stringify({
        type: 'response.function_call_arguments.delta',
        item_id: item,
        output_index: output,
        delta,
        sequence_number: seq,
      });
    const chat = (content: string, id = 'chatcmpl-1', model = 'gpt', extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: 7,
        model,
        system_fingerprint: 'fp',
        choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
        ...extra,
      });
    const values = [
      'a',
      'word ',
      '',
      'q\\"uote',
      'é 日本 🙂',
      'line\nbreak',
      '"}}',
      ',"logprobs":[],"sequence_number":9}',
    ];
    // Every event twice in a row: the first teaches the reader its head, the second is read by what it learned.
    const stream: string[] = [];
    const twice = (...events: string[]) => events.forEach((e) => stream.push(e, e));
    for (const v of values) twice(messages(v), text(v, 'msg_1', 0, 0, stream.length), chat(v), args(v));
    // The same heads again after learning, then changed heads: another block, kind, item, index, id or model.
    for (const v of values)
      twice(
        messages(v),
        messages(v, 1),
        messages(v, 0, 'thinking_delta', 'thinking'),
        messages(v, 2, 'input_json_delta', 'partial_json'),
      );
    for (const v of values)
      twice(
        text(v, 'msg_1', 0, 0, 40),
        text(v, 'msg_2', 0, 0, 41),
        text(v, 'msg_1', 3, 1, 42),
        text(v, 'msg_"1', 0, 0, 43),
        text(v, 'msg_1', 0, 0, 44, { obfuscation: 'zz' }),
      );
    for (const v of values)
      twice(
        chat(v),
        chat(v, 'chatcmpl-2'),
        chat(v, 'chatcmpl-1', 'gpt.4*(x)'),
        chat(v, 'chatcmpl-1', 'gpt', { usage: null }),
        args(v, 'fc_2', 4, 99),
      );
    // Near misses of a learned head: each must fall through to the general templates and be refused there.
    const learnedThenBroken = [
      messages('x').replace('"text":', '"text" :'),
      messages('x') + ' ',
      messages('x').replace('}}', '},"extra":1}'),
      messages('x').replace('"x"', '"bad \u0001 control"'),
      text('x').replace('"logprobs":[]', '"logprobs":null'),
      text('x').replace(',"logprobs":[]', ''),
      text('x').replace('"sequence_number":1', '"sequence_number":01'),
      text('x').slice(0, -1),
      chat('x').replace('"finish_reason":null', '"finish_reason":"stop"'),
      chat('x').replace('"model":"gpt"', '"model":"gpt","extra":1'),
      chat('x').replace('"x"', '"bad \\x escape"'),
      args('x').replace('"sequence_number":1', '"sequence_number":-1'),
      args('x').replace(',"sequence_number"', ',"logprobs":[],"sequence_number"'),
    ];
    // Each right after a valid event with its head, so the learned template is the first to see it.
    for (const broken of learnedThenBroken) {
      const valid = broken.startsWith('{"type":"content')
        ? messages('x')
        : broken.startsWith('{"type":"response.output')
          ? text('x')
          : broken.startsWith('{"id"')
            ? chat('x')
            : args('x');
      twice(valid);
      stream.push(broken);
    }
    // A head is text, not a pattern: one learned from the model "g+" must not take "ggg" (whose content sits further on).
    twice(chat('y', 'chatcmpl-1', 'g+'));
    stream.push(chat('z', 'chatcmpl-1', 'ggg'));
    twice(text('y', 'm.*'));
    stream.push(text('z', 'mmmm'));
    // More heads than the reader keeps: items interleaved one event each.
    for (let i = 0; i < 80; i++) stream.push(text(`t${i}`, `msg_${i % 40}`, i % 40, 0, 100 + i));

    const read = createFastDeltaReader();
    for (const data of stream) expect(view(read(data)), data).toEqual(view(fastDelta(data)));
    for (const data of learnedThenBroken) expect(read(data), data).toBeUndefined();
    expect(stream.filter((d) => read(d) !== undefined).length).toBe(stream.length - learnedThenBroken.length);

    // Templates outlive their stream: a new stream starts with what this one learned and reads the same values.
    const next = createFastDeltaReader();
    for (const data of [...stream].reverse()) expect(view(next(data)), data).toEqual(view(fastDelta(data)));
    // Many streams, each with its own id (more heads than are kept), then the first ones again.
    const ids = Array.from({ length: 300 }, (_, i) => `chatcmpl-${i}`);
    for (const id of [...ids, ...ids.slice(0, 20)]) {
      const own = createFastDeltaReader();
      for (const v of values) expect(view(own(chat(v, id))), id).toEqual(view(fastDelta(chat(v, id))));
    }
  });
});
