import { describe, expect, it } from 'vitest';
import { createChatFold, readChatResponse } from './chat';
import { cutBefore, fixtures, runFold, sse } from './fixtures/harness';

const chunk = (
  delta: Record<string, unknown> | null,
  extra: Record<string, unknown> = {},
  finish: string | null = null,
) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  model: 'gpt-x',
  choices: delta === null ? [] : [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const data = (
  delta: Record<string, unknown> | null,
  extra: Record<string, unknown> = {},
  finish: string | null = null,
) => sse.data(chunk(delta, extra, finish));
const DONE = 'data: [DONE]\n\n';

describe('Chat fold over recorded-style fixtures', () => {
  it('folds text, the final usage chunk and [DONE]', () => {
    const run = runFold('chat', fixtures.chatText);
    expect(run.transcript).toMatchObject({
      id: 'chatcmpl-FixtureText9rnyXoOvZN6Ec33',
      model: 'gpt-4o-2024-08-06',
      blocks: [{ kind: 'text', text: 'Server-sent events stream text — naïve ✓ 🚀.' }],
      stopReason: 'stop',
      usage: { inputTotal: 71, inputCached: 64, output: 10, reasoning: 0 },
    });
    expect(run.transcript.usage.inputCacheWrite).toBeUndefined();
    expect(run.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
    // Typed by what each chunk carries, so the Events type filter can pick out the text, the finish, the usage.
    expect(run.steps.map((s) => s.type)).toEqual(['role', ...Array(5).fill('content'), 'finish', 'usage', '[DONE]']);
    expect(run.steps.at(-1)?.terminal).toBe(true);
  });

  it('accumulates parallel tool calls by index with arguments split across deltas', () => {
    const run = runFold('chat', fixtures.chatToolCalls);
    expect(run.transcript.blocks).toEqual([
      {
        kind: 'tool_call',
        id: 'call_paris01',
        name: 'get_weather',
        argsText: '{"city": "Paris"}',
        args: { city: 'Paris' },
        complete: true,
      },
      {
        kind: 'tool_call',
        id: 'call_tokyo02',
        name: 'get_weather',
        argsText: '{"city": "Tōkyō"}',
        args: { city: 'Tōkyō' },
        complete: true,
      },
    ]);
    expect(run.transcript.stopReason).toBe('tool_calls');
    expect(run.transcript.usage).toEqual({ inputTotal: 82, inputCached: 0, output: 36, reasoning: 12 });
    expect(run.outcome.verdict).toBe('complete');
  });

  it('keeps refusal deltas as a refusal block', () => {
    const run = runFold('chat', fixtures.chatRefusal);
    expect(run.transcript.blocks).toEqual([{ kind: 'refusal', text: "I'm sorry, I can't help with that." }]);
    expect(run.steps.filter((s) => s.content)).toHaveLength(4);
    // No include_usage: usage was never reported.
    expect(run.transcript.usage).toEqual({});
    expect(run.transcript.rawUsage).toBeUndefined();
  });

  it('shows reasoning_content (gateway extension) as a thinking block', () => {
    const run = runFold('chat', fixtures.chatReasoning);
    expect(run.transcript.blocks).toEqual([
      { kind: 'thinking', text: 'Two plus two is four.' },
      { kind: 'text', text: '4' },
    ]);
    expect(run.transcript.usage).toEqual({ inputTotal: 12, output: 9, reasoning: 7 });
  });
});

describe('Chat fold: tool-call quirks', () => {
  it('§9.10: a new id at a used index starts a new call', () => {
    const body =
      data({ role: 'assistant', content: null }) +
      data({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'one', arguments: '{"x":' } }],
      }) +
      data({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }) +
      data({ tool_calls: [{ index: 0, id: 'call_b', type: 'function', function: { name: 'two', arguments: '{}' } }] }) +
      data({ tool_calls: [{ index: 0, id: 'call_b', function: { arguments: '' } }] }) +
      data({}, {}, 'tool_calls') +
      DONE;
    const run = runFold('chat', body);
    expect(run.transcript.blocks).toEqual([
      { kind: 'tool_call', id: 'call_a', name: 'one', argsText: '{"x":1}', args: { x: 1 }, complete: true },
      { kind: 'tool_call', id: 'call_b', name: 'two', argsText: '{}', args: {}, complete: true },
    ]);
  });

  it('a forced named tool ends with finish_reason stop: the call is still structural', () => {
    const body =
      data({ tool_calls: [{ index: 0, id: 'c', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }) +
      data({}, {}, 'stop') +
      DONE;
    const run = runFold('chat', body);
    expect(run.transcript.stopReason).toBe('stop');
    expect(run.transcript.blocks[0]).toMatchObject({ kind: 'tool_call', args: { city: 'Paris' }, complete: true });
  });

  it('tool calls stay incomplete until finish_reason; invalid arguments set argsError', () => {
    const fold = createChatFold();
    fold.push({
      data: JSON.stringify(chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{"a' } }] })),
    });
    expect(fold.transcript().blocks[0]).toMatchObject({ complete: false, argsText: '{"a' });
    fold.push({ data: JSON.stringify(chunk({}, {}, 'tool_calls')) });
    const b = fold.transcript().blocks[0];
    expect(b).toMatchObject({ complete: true });
    expect(b).toHaveProperty('argsError');
  });
});

describe('Chat fold: usage', () => {
  it('ignores usage:null chunks and keeps the last real usage object', () => {
    const body =
      data({ content: 'a' }, { usage: null }) +
      data({}, { usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }, 'stop') +
      data(null, { usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }) +
      data(null, { usage: null }) +
      DONE;
    const run = runFold('chat', body);
    expect(run.transcript.usage).toEqual({ inputTotal: 5, output: 2 });
    expect(run.transcript.rawUsage).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
  });

  it('missing usage chunk means not reported, still complete', () => {
    const run = runFold('chat', data({ content: 'a' }, { usage: null }) + data({}, { usage: null }, 'stop') + DONE);
    expect(run.transcript.usage).toEqual({});
    expect(run.outcome).toMatchObject({ verdict: 'complete', warnings: [] });
  });
});

describe('Chat fold: terminal cases', () => {
  it('finish_reason then EOF without [DONE] is complete with a warning', () => {
    const run = runFold('chat', cutBefore(fixtures.chatText, '[DONE]'));
    expect(run.outcome.verdict).toBe('complete');
    expect(run.outcome.warnings.some((w) => w.startsWith('no [DONE] sentinel'))).toBe(true);
  });

  it('EOF before finish_reason is truncated, naming what was missing', () => {
    const run = runFold('chat', cutBefore(fixtures.chatText, '"finish_reason":"stop"'));
    expect(run.outcome.verdict).toBe('truncated');
    expect(run.outcome.reason).toBe(
      'The connection closed before a finish_reason and data: [DONE] arrived (6 events received).',
    );
    expect(run.transcript.blocks[0]).toMatchObject({
      kind: 'text',
      text: 'Server-sent events stream text — naïve ✓ 🚀.',
    });
  });

  it('[DONE] without any finish_reason is truncated', () => {
    const run = runFold('chat', data({ content: 'partial' }) + DONE);
    expect(run.outcome.verdict).toBe('truncated');
    expect(run.outcome.reason).toMatch(/\[DONE\] without any finish_reason/);
  });

  it('ignores chunks after [DONE] with a warning and a second [DONE] silently', () => {
    const run = runFold('chat', data({ content: 'a' }, {}, 'stop') + DONE + data({ content: 'late' }) + DONE);
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'a' }]);
    expect(run.outcome.warnings).toEqual(['content arrived after [DONE] and was ignored.']);
  });

  it('a top-level error in a data frame is an error-event', () => {
    const run = runFold(
      'chat',
      data({ content: 'par' }) +
        sse.data({ error: { message: 'Upstream overloaded', type: 'server_error', code: 503 } }) +
        DONE,
    );
    expect(run.outcome).toMatchObject({
      verdict: 'error-event',
      error: { type: 'server_error', code: '503', message: 'Upstream overloaded' },
    });
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'par' }]);
  });

  it('event: error frames and chunks with empty choices plus error are error-events', () => {
    const named = runFold('chat', 'event: error\ndata: {"error":{"message":"bad","code":"rate_limit_exceeded"}}\n\n');
    expect(named.outcome).toMatchObject({
      verdict: 'error-event',
      error: { code: 'rate_limit_exceeded', message: 'bad' },
    });
    const inChunk = runFold('chat', data(null, { error: { message: 'Provider returned error', code: 502 } }));
    expect(inChunk.outcome).toMatchObject({
      verdict: 'error-event',
      error: { code: '502', message: 'Provider returned error' },
    });
    const text = runFold('chat', 'event: error\ndata: {"message":"plain"}\n\n');
    expect(text.outcome.verdict).toBe('error-event');
  });

  it('warns about malformed JSON and carries on', () => {
    const run = runFold(
      'chat',
      'data: {"choices":[{"delta":{"content":"x"\n\n' + data({ content: 'ok' }, {}, 'stop') + DONE,
    );
    expect(run.outcome.verdict).toBe('complete');
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'ok' }]);
    expect(run.outcome.warnings[0]).toMatch(/Event 1 is not a JSON object/);
  });

  it('an empty successful stream is complete but flagged', () => {
    const run = runFold('chat', data({ role: 'assistant', content: '' }) + data({}, {}, 'stop') + DONE);
    expect(run.outcome.verdict).toBe('complete');
    expect(run.outcome.warnings.join()).toMatch(/no content and no usage/);
  });

  it('only the first choice is folded when n > 1', () => {
    const body =
      sse.data({
        id: 'x',
        object: 'chat.completion.chunk',
        choices: [
          { index: 0, delta: { content: 'A' } },
          { index: 1, delta: { content: 'B' } },
        ],
      }) +
      data({}, {}, 'stop') +
      DONE;
    const run = runFold('chat', body);
    expect(run.transcript.blocks).toEqual([{ kind: 'text', text: 'A' }]);
    expect(run.outcome.warnings.join()).toMatch(/Choice 1 ignored/);
  });
});

describe('readChatResponse', () => {
  it('reads the §3.3 body', () => {
    const reading = readChatResponse({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-x',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              { id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 82,
        completion_tokens: 18,
        total_tokens: 100,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 12 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(reading).toEqual({
      transcript: {
        id: 'chatcmpl-1',
        model: 'gpt-x',
        stopReason: 'tool_calls',
        blocks: [
          {
            kind: 'tool_call',
            id: 'call_abc',
            name: 'get_weather',
            argsText: '{"city":"Paris"}',
            args: { city: 'Paris' },
            complete: true,
          },
        ],
        usage: { inputTotal: 82, inputCached: 0, inputCacheWrite: 12, output: 18, reasoning: 0 },
        rawUsage: expect.any(Object),
      },
      warnings: [],
    });
  });

  it('reads text, reasoning_content and refusal', () => {
    const reading = readChatResponse({
      choices: [
        {
          message: { role: 'assistant', content: 'Hi', reasoning_content: 'think', refusal: 'no' },
          finish_reason: 'stop',
        },
      ],
    });
    expect(reading.transcript.blocks).toEqual([
      { kind: 'thinking', text: 'think' },
      { kind: 'text', text: 'Hi' },
      { kind: 'refusal', text: 'no' },
    ]);
    expect(reading.transcript.usage).toEqual({});
  });

  it('a 200 body with an error envelope sets error (new-api model lookup)', () => {
    const reading = readChatResponse({
      error: { message: 'model gpt-z not found', type: 'new_api_error', code: 'model_not_found' },
      success: false,
    });
    expect(reading.error).toEqual({ type: 'new_api_error', code: 'model_not_found', message: 'model gpt-z not found' });
    expect(readChatResponse({ error: 'upstream exploded' }).error).toEqual({ message: 'upstream exploded' });
  });
});
