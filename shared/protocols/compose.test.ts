import { describe, expect, it } from 'vitest';
import {
  appendAssistantTurn,
  appendToolResults,
  appendUserTurn,
  defaultBody,
  getModel,
  isStreaming,
  pendingToolCalls,
} from './compose';
import { cutBefore, fixtures, runFold, sse } from './fixtures/harness';
import { readMessagesResponse } from './messages';
import { readResponsesResponse } from './responses-body';
import type { Transcript } from './types';

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

describe('defaultBody', () => {
  it('builds a useful starter per protocol', () => {
    const user = { role: 'user', content: 'Explain server-sent events in two sentences.' };
    expect(defaultBody('messages', 'claude-x')).toEqual({
      model: 'claude-x',
      messages: [user],
      max_tokens: 1024,
      stream: true,
    });
    expect(defaultBody('chat', 'gpt-x')).toEqual({
      model: 'gpt-x',
      messages: [user],
      max_completion_tokens: 1024,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(defaultBody('responses', 'gpt-x')).toEqual({
      model: 'gpt-x',
      input: [user],
      max_output_tokens: 1024,
      stream: true,
    });
    expect(defaultBody('messages')).not.toHaveProperty('model');
  });

  it('getModel and isStreaming', () => {
    expect(getModel({ model: 'm' })).toBe('m');
    expect(getModel({ model: 3 })).toBeUndefined();
    expect(isStreaming({ stream: true })).toBe(true);
    expect(isStreaming({ stream: 'true' })).toBe(false);
    expect(isStreaming({})).toBe(false);
  });
});

describe('Messages round trip (§1.7)', () => {
  it('appends the assistant turn verbatim (thinking with signature, redacted, text, tool_use) then tool_result blocks', () => {
    const thinking = runFold('messages', fixtures.messagesThinking).transcript;
    const tool = runFold('messages', fixtures.messagesToolUse).transcript;
    const transcript: Transcript = { ...tool, blocks: [...thinking.blocks.slice(0, 2), ...tool.blocks] };
    const body = deepFreeze({
      ...defaultBody('messages', 'claude-x'),
      tools: [{ name: 'get_weather' }],
      x_custom: { keep: true },
    });
    const withReply = appendAssistantTurn('messages', body, transcript);
    const next = appendToolResults('messages', withReply, [
      { id: 'toolu_01FixtureWeatherCall', name: 'get_weather', output: '18°C, nonce K7Q2' },
    ]);
    expect(next).toEqual({
      model: 'claude-x',
      max_tokens: 1024,
      stream: true,
      tools: [{ name: 'get_weather' }],
      x_custom: { keep: true },
      messages: [
        { role: 'user', content: 'Explain server-sent events in two sentences.' },
        {
          role: 'assistant',
          content: [
            {
              type: 'thinking',
              thinking: 'The user asks 17 × 23. 17 × 20 = 340, 17 × 3 = 51, so 391.',
              signature: 'EqQBCkYIBxgCKkBfixtureSignatureAAAA==',
            },
            {
              type: 'redacted_thinking',
              data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB9URj2pLmN8YU==',
            },
            { type: 'text', text: "I'll check the weather in Paris." },
            { type: 'tool_use', id: 'toolu_01FixtureWeatherCall', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01FixtureWeatherCall', content: '18°C, nonce K7Q2' }],
        },
      ],
    });
    expect((body as Record<string, unknown>).messages).toHaveLength(1);
  });

  it('marks failed tool results with is_error and then continues with a user turn', () => {
    const body = appendToolResults('messages', { messages: [] }, [
      { id: 'a', output: 'ok' },
      { id: 'b', output: 'no such city', isError: true },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: 'ok' },
          { type: 'tool_result', tool_use_id: 'b', content: 'no such city', is_error: true },
        ],
      },
    ]);
    expect(appendUserTurn('messages', body, 'thanks').messages).toEqual([
      ...(body.messages as unknown[]),
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('skips unsendable blocks and sends nothing for an empty reply', () => {
    const t: Transcript = {
      blocks: [
        { kind: 'thinking', text: 'no signature' },
        { kind: 'text', text: '' },
      ],
      usage: {},
    };
    expect(appendAssistantTurn('messages', { messages: [] }, t)).toEqual({ messages: [] });
  });
});

describe('Chat round trip (§3.4)', () => {
  it('appends the assistant message with tool_calls (content null) then one tool message per call', () => {
    const transcript = runFold('chat', fixtures.chatToolCalls).transcript;
    const body = deepFreeze({ ...defaultBody('chat', 'gpt-x'), parallel_tool_calls: true });
    const pending = pendingToolCalls(transcript);
    expect(pending).toEqual([
      { id: 'call_paris01', name: 'get_weather', args: { city: 'Paris' }, argsText: '{"city": "Paris"}' },
      { id: 'call_tokyo02', name: 'get_weather', args: { city: 'Tōkyō' }, argsText: '{"city": "Tōkyō"}' },
    ]);
    const next = appendToolResults(
      'chat',
      appendAssistantTurn('chat', body, transcript),
      pending.map((p) => ({
        id: p.id,
        name: p.name,
        output: `18°C, nonce K7Q2 (${(p.args as { city: string }).city})`,
      })),
    );
    expect(next.parallel_tool_calls).toBe(true);
    expect(next.stream_options).toEqual({ include_usage: true });
    expect((next.messages as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_paris01', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
          { id: 'call_tokyo02', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Tōkyō"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_paris01', content: '18°C, nonce K7Q2 (Paris)' },
      { role: 'tool', tool_call_id: 'call_tokyo02', content: '18°C, nonce K7Q2 (Tōkyō)' },
    ]);
  });

  it('a text reply continues as a plain assistant message; thinking is not sent back', () => {
    const transcript = runFold('chat', fixtures.chatReasoning).transcript;
    const next = appendUserTurn(
      'chat',
      appendAssistantTurn('chat', { messages: [{ role: 'user', content: '2+2?' }] }, transcript),
      'and 3+3?',
    );
    expect(next.messages).toEqual([
      { role: 'user', content: '2+2?' },
      { role: 'assistant', content: '4' },
      { role: 'user', content: 'and 3+3?' },
    ]);
  });

  it('empty tool arguments are sent as "{}"', () => {
    const t: Transcript = {
      blocks: [{ kind: 'tool_call', id: 'c', name: 'f', argsText: '', args: {}, complete: true }],
      usage: {},
    };
    expect(appendAssistantTurn('chat', {}, t).messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ]);
  });
});

describe('Responses round trip (§4.3)', () => {
  it('appends output items (reasoning without encrypted_content skipped) and function_call_output items; a string input becomes a user item', () => {
    const transcript = runFold('responses', fixtures.responsesTextTool).transcript;
    const body = deepFreeze({
      model: 'gpt-x',
      input: 'Weather in Paris?',
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    const pending = pendingToolCalls(transcript);
    expect(pending.map((p) => p.id)).toEqual(['call_abc']);
    const next = appendToolResults('responses', appendAssistantTurn('responses', body, transcript), [
      { id: 'call_abc', output: '18°C, nonce K7Q2' },
    ]);
    expect(next).toEqual({
      model: 'gpt-x',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Checking Paris — один момент ⏳' }],
        },
        { type: 'function_call', call_id: 'call_abc', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_abc', output: '18°C, nonce K7Q2' },
      ],
    });
    expect(body.input).toBe('Weather in Paris?');
    expect(appendUserTurn('responses', next, 'Thanks').input).toHaveLength(5);
    expect(appendUserTurn('responses', { input: 'a' }, 'b').input).toEqual([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
  });

  it('pendingToolCalls lists only complete calls', () => {
    const t: Transcript = {
      blocks: [
        { kind: 'tool_call', id: 'done', name: 'f', argsText: '{}', args: {}, complete: true },
        { kind: 'tool_call', id: 'partial', name: 'g', argsText: '{"a', complete: false },
      ],
      usage: {},
    };
    expect(pendingToolCalls(t).map((p) => p.id)).toEqual(['done']);
  });
});

describe('Continue after a run cut off mid tool call', () => {
  const user = { role: 'user', content: 'Weather in Paris?' };

  it('Messages leaves out a tool_use that never got its content_block_stop and keeps the text before it', () => {
    const transcript = runFold('messages', cutBefore(fixtures.messagesToolUse, 'ty\\": \\"Pa')).transcript;
    expect(transcript.blocks[1]).toMatchObject({ kind: 'tool_call', complete: false });
    expect(pendingToolCalls(transcript)).toEqual([]);
    expect(appendAssistantTurn('messages', { messages: [user] }, transcript).messages).toEqual([
      user,
      { role: 'assistant', content: [{ type: 'text', text: "I'll check the weather in Paris." }] },
    ]);
  });

  it('Messages appends no turn when only the cut-off call, or thinking before it, remains', () => {
    const cut: Transcript = {
      blocks: [
        { kind: 'thinking', text: 'Need the tool.', signature: 'sig' },
        { kind: 'tool_call', id: 'toolu_1', name: 'get_weather', argsText: '{"city": "Pa', complete: false },
      ],
      usage: {},
    };
    expect(appendAssistantTurn('messages', { messages: [user] }, cut)).toEqual({ messages: [user] });
    expect(appendAssistantTurn('messages', { messages: [user] }, { ...cut, blocks: cut.blocks.slice(1) })).toEqual({
      messages: [user],
    });
  });

  it('Chat leaves out tool_calls whose arguments were still streaming; no empty assistant message', () => {
    const transcript = runFold('chat', cutBefore(fixtures.chatToolCalls, ': \\"Tōkyō\\"}')).transcript;
    expect(transcript.blocks.filter((b) => b.kind === 'tool_call' && !b.complete)).not.toHaveLength(0);
    expect(appendAssistantTurn('chat', { messages: [user] }, transcript)).toEqual({ messages: [user] });
    const mixed: Transcript = {
      blocks: [
        { kind: 'text', text: 'Checking.' },
        { kind: 'tool_call', id: 'call_1', name: 'f', argsText: '{}', args: {}, complete: true },
        { kind: 'tool_call', id: 'call_2', name: 'f', argsText: '{"ci', complete: false },
      ],
      usage: {},
    };
    expect(appendAssistantTurn('chat', {}, mixed).messages).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
    ]);
  });

  it('Responses leaves out a function_call cut off mid-arguments and the reasoning item it would have followed', () => {
    const cut: Transcript = {
      blocks: [
        { kind: 'text', text: 'Checking.' },
        { kind: 'thinking', text: '', item: { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' } },
        { kind: 'tool_call', id: 'call_1', name: 'f', argsText: '{"ci', complete: false },
      ],
      usage: {},
    };
    expect(appendAssistantTurn('responses', { input: [user] }, cut).input).toEqual([
      user,
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
    ]);
    expect(appendAssistantTurn('responses', { input: [user] }, { ...cut, blocks: cut.blocks.slice(1) })).toEqual({
      input: [user],
    });
  });
});

describe('Continue after a refusal', () => {
  const user = { role: 'user', content: 'x' };
  const messageStart = sse.named({
    type: 'message_start',
    message: { id: 'm', usage: { input_tokens: 5, output_tokens: 1 } },
  });
  const refusal = sse.named({
    type: 'message_delta',
    delta: { stop_reason: 'refusal', stop_details: { type: 'refusal', category: 'cyber', explanation: null } },
    usage: { output_tokens: 2 },
  });

  it('Messages does not resend the stop_details wording as assistant text, only what the model wrote', () => {
    const only = runFold('messages', messageStart + refusal + sse.named({ type: 'message_stop' })).transcript;
    expect(only.blocks).toEqual([
      { kind: 'refusal', text: 'The model refused. (category: cyber)', source: 'stop_details' },
    ]);
    expect(appendAssistantTurn('messages', { messages: [user] }, only)).toEqual({ messages: [user] });
    const afterText = readMessagesResponse({
      content: [{ type: 'text', text: 'Sure, step one' }],
      stop_reason: 'refusal',
      stop_details: { type: 'refusal', category: 'cyber', explanation: 'No.' },
    }).transcript;
    expect(appendAssistantTurn('messages', { messages: [user] }, afterText).messages).toEqual([
      user,
      { role: 'assistant', content: [{ type: 'text', text: 'Sure, step one' }] },
    ]);
  });

  it('Chat and Responses resend the model’s own refusal in their refusal shapes', () => {
    const chat = runFold('chat', fixtures.chatRefusal).transcript;
    expect(appendAssistantTurn('chat', { messages: [user] }, chat).messages).toEqual([
      user,
      { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that." },
    ]);
    const responses: Transcript = { blocks: [{ kind: 'refusal', text: "I can't do that." }], usage: {} };
    expect(appendAssistantTurn('responses', { input: [user] }, responses).input).toEqual([
      user,
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: "I can't do that." }] },
    ]);
  });
});

describe('Responses stateless reasoning carry-over (§4.3)', () => {
  const body = {
    store: false,
    include: ['reasoning.encrypted_content'],
    input: [{ role: 'user', content: 'weather?' }],
  };
  const reasoning = {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'Need the tool.' }],
    encrypted_content: 'gAAAA_ENC',
  };
  const call = {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'get_weather',
    arguments: '{"city":"Paris"}',
    status: 'completed',
  };
  const expected = [
    ...body.input,
    reasoning,
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: '18C' },
  ];
  const roundTrip = (transcript: Transcript) =>
    appendToolResults('responses', appendAssistantTurn('responses', deepFreeze(body), transcript), [
      { id: 'call_1', output: '18C' },
    ]).input;

  it('a streamed reasoning item goes back, encrypted_content included, before its function_call', () => {
    let seq = 0;
    const ev = (type: string, o: Record<string, unknown>) => sse.named({ type, sequence_number: seq++, ...o });
    const text =
      ev('response.created', { response: { id: 'resp_1', status: 'in_progress', output: [] } }) +
      ev('response.output_item.added', { output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }) +
      ev('response.reasoning_summary_text.delta', {
        item_id: 'rs_1',
        output_index: 0,
        summary_index: 0,
        delta: 'Need the tool.',
      }) +
      ev('response.output_item.done', { output_index: 0, item: reasoning }) +
      ev('response.output_item.added', { output_index: 1, item: { ...call, arguments: '', status: 'in_progress' } }) +
      ev('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 1, delta: call.arguments }) +
      ev('response.output_item.done', { output_index: 1, item: call }) +
      ev('response.completed', { response: { id: 'resp_1', status: 'completed', output: [] } });
    expect(roundTrip(runFold('responses', text).transcript)).toEqual(expected);
  });

  it('a non-streamed reasoning item goes back the same way; without one nothing is added', () => {
    expect(roundTrip(readResponsesResponse({ status: 'completed', output: [reasoning, call] }).transcript)).toEqual(
      expected,
    );
    expect(roundTrip(readResponsesResponse({ status: 'completed', output: [call] }).transcript)).toEqual([
      ...body.input,
      ...expected.slice(2),
    ]);
  });
});
